"""python -m mie --version: the project's version (the same as mie-compile, mie-run and mie-sign
--version print), and where the native module was loaded from."""
import argparse
import sys


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m mie", description=__doc__)
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    args = parser.parse_args(argv)
    import mie
    if args.version:
        print(f"mie {mie.__version__}")
        return 0
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
