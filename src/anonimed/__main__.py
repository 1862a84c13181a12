import sys

from anonimed.cli import main

sys.exit(main())
