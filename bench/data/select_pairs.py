#!/usr/bin/python3
"""Makes bench/data/spa-eng-36k.tsv (bench/data/README.md says from what): the pairs of spa.txt
whose English and Spanish sides both have 2 to 10 words (split at whitespace), every STEP-th of
them from the first, as the file has them (English<TAB>Spanish, one pair a line).

    /usr/bin/python3 bench/data/select_pairs.py path/to/spa-eng.zip > bench/data/spa-eng-36k.tsv
"""
import hashlib
import sys
import zipfile

SHA256 = "6ec60e212f812ee3430f7568ea6f33b6fb080e32193c5952e8da0ee8ba45574c"  # spa-eng/spa.txt
STEP = 3
WORDS = range(2, 11)


def main():
    data = zipfile.ZipFile(sys.argv[1]).read("spa-eng/spa.txt")
    if hashlib.sha256(data).hexdigest() != SHA256:
        sys.exit("spa-eng/spa.txt is not the file bench/data/README.md names")
    lines = [line for line in data.decode("utf-8").split("\n") if line]
    eligible = [line for line in lines
                if all(len(side.split()) in WORDS for side in line.split("\t"))]
    sys.stdout.write("".join(line + "\n" for line in eligible[::STEP]))


if __name__ == "__main__":
    main()
