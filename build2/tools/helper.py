# SPDX-License-Identifier: GPL-2.0
"""What the guest's Python helpers share: how a helper ends."""
import os
import sys
import traceback


def run(main, *args):
    """Exit with main(*args)'s status; a crash is a FAIL line naming the
    helper (its callers may look only at the lines it prints)."""
    try:
        code = main(*args)
    except Exception as e:  # pylint: disable=broad-except
        traceback.print_exc()
        print(f"FAIL: {os.path.basename(sys.argv[0])}: crashed: {e!r}")
        code = 2
    sys.stdout.flush()
    sys.exit(code)
