"""The editions of the series in other languages, built from the English notebooks and the catalogues.

    python -m tools.translate skeleton zh-Hans NN ...   # an entry (English text) per cell the catalogues lack
    python -m tools.translate stamp zh-Hans NN CELL ... # "I updated these entries": hash := today's English
    python -m tools.translate build [NN ...]            # notebooks/<language>/, generated catalogues, guides
    python -m tools.translate execute [NN ...]          # run the edition notebooks, store their outputs
    python -m tools.translate check                     # change nothing; exit 1 naming what is stale

skeleton and stamp take a language translated by hand (zh-Hans); zh-Hant is derived from zh-Hans.
See docs/translating.md.
"""

from __future__ import annotations

import argparse
import sys

from .check import check
from .config import REPO, TRANSLATED
from .editions import build, execute
from .translator import code_skeleton, skeleton, stamp


def main(argv: list[str] | None = None) -> int:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="python -m tools.translate", description=__doc__, formatter_class=raw
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sk = sub.add_parser("skeleton", help="add English placeholder entries for cells a catalogue lacks")
    sk.add_argument("language", choices=TRANSLATED)
    sk.add_argument("numbers", nargs="+")
    st = sub.add_parser("stamp", help="mark entries as translating today's English")
    st.add_argument("language", choices=TRANSLATED)
    st.add_argument("number")
    st.add_argument("cells", nargs="+", metavar="CELL_ID")
    for name in ("build", "execute"):
        sub.add_parser(name).add_argument("numbers", nargs="*")
    sub.add_parser("check")
    args = parser.parse_args(argv)
    try:
        if args.command == "skeleton":
            for number in args.numbers:
                print(REPO.name(skeleton(args.language, number)))
                print(REPO.name(code_skeleton(args.language, number)))
        elif args.command == "stamp":
            print(REPO.name(stamp(args.language, args.number, args.cells)))
        elif args.command == "build":
            return build(args.numbers)
        elif args.command == "execute":
            return execute(args.numbers)
        elif args.command == "check":
            return check()
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
