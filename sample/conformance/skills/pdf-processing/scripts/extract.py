"""Prints the text of every page of a PDF (a sample script of the pdf-processing skill)."""
import sys

if __name__ == "__main__":
    print(f"would extract the text of {sys.argv[1]}")
