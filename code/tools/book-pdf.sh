#!/bin/bash
# book-pdf.sh HTML PDF - print the HTML book to a tagged PDF with headless Chromium.
#
# Chromium writes a tagged PDF (its structure tree: headings, paragraphs,
# figures with their text) by default, takes the PDF's title from the
# page's <title>, and with --generate-pdf-document-outline turns the
# headings into the PDF's outline (bookmarks).  The page size and margins
# come from book.css (@page, print media); --no-pdf-header-footer leaves out
# the date and the file's path that it would print on every page.
# --no-sandbox: Chromium's sandbox refuses to run as root, which is who
# builds the book in CI and in make check-fresh; the page is our own file,
# with nothing loaded from elsewhere.  The book is one self-contained file,
# so nothing is fetched.
#
# Exit status: 0 the PDF is written; 1 Chromium failed (its messages shown);
# 2 Chromium is not installed.
set -u
html=$1 pdf=$2
command -v chromium >/dev/null ||
	{ echo "book-pdf: chromium is not installed (make deps installs BOOK_PACKAGES)" >&2; exit 2; }
[ -s "$html" ] || { echo "book-pdf: $html is missing" >&2; exit 1; }
profile=$(mktemp -d)
tmp=$pdf.$$.tmp.pdf
trap 'rm -rf "$profile" "$tmp"' EXIT
if ! timeout -k 5 300 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update --disable-sync \
		--no-first-run --user-data-dir="$profile" \
		--no-pdf-header-footer --generate-pdf-document-outline \
		--print-to-pdf="$(realpath -m "$tmp")" "file://$(realpath "$html")" >"$profile/log" 2>&1 ||
		[ ! -s "$tmp" ]; then
	grep -v -e 'dbus' -e 'Fontconfig' "$profile/log" | tail -n 20 >&2
	echo "book-pdf: Chromium did not print $html" >&2
	exit 1
fi
mv "$tmp" "$pdf"
