"""Running the project's tools from the timing checks of this directory."""
import subprocess
import sys


def run(cmd, stdin=None):
    """`cmd`'s standard output (given `stdin`); exits with its status and
    standard error when it fails."""
    r = subprocess.run(cmd, capture_output=True, input=stdin)
    if r.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (r.returncode, " ".join(cmd),
                                           r.stderr.decode()))
    return r.stdout
