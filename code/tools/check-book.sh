#!/bin/bash
# check-book.sh HTML CHAPTER.md... - what `make check-book` checks once the book is built.
#
# The build itself already failed on any include, run or figure that does not
# resolve (include.lua) and on any link to a missing section (book.lua).  This
# checks the result from the outside, without pandoc:
#   - every figure a chapter references is a file in figures/;
#   - the HTML embeds every figure (data: URIs, or inline <svg> from pandoc
#     3, so the one file is the book)
#     and loads nothing from elsewhere;
#   - every "#id" link in the HTML has its target;
#   - no include or run block was left unfilled;
#   - no chapter prints the answer to its own stage's exercises: a stage's
#     chapter shows exercises/stageN/, never solutions/stageN/ (a later
#     chapter may show an earlier stage's reference), and no excerpt
#     carries an exercise fence.  Chapter 0N of the first four is stage
#     N's; chapters 05-07 study stage 4; chapter 08 is stage 5's;
#   - the PDF beside the HTML (same name, .pdf) is tagged (a structure tree,
#     what a screen reader follows), has the book's title and an outline with
#     an entry for each chapter at least (pdfinfo, pdftohtml: poppler-utils);
#   - the EPUB beside it passes epubcheck with no error and no fatal.
set -u
html=$1; shift
fail=0
bad() { echo "check-book: $*" >&2; fail=1; }

nfig=0
for ch in "$@"; do
	# ![caption](path ...) - the caption may run over several lines and hold
	# balanced brackets ("sh[8]"), as pandoc allows.
	while IFS= read -r src; do
		[ -n "$src" ] || continue
		nfig=$((nfig + 1))
		src=${src#../}
		case $src in
		figures/*/*|figures/) bad "$ch: figure $src: a figure is a file directly in figures/" ;;
		figures/*) [ -f "$src" ] || [ -f "${src%.svg}.dot" ] ||
			bad "$ch: figure $src does not exist, nor its DOT (is it in figures/figures.list? run make figures)" ;;
		*) bad "$ch: figure $src is not in figures/" ;;
		esac
	done < <(perl -0777 -ne 'while (/!\[((?:[^\[\]]|\[(?1)\])*)\]\(\s*([^)\s]+)/g) { print "$2\n" }' "$ch")
done

for ch in "$@"; do
	n=$(basename "$ch" | sed -n 's/^0\([1-4]\)-.*/\1/p; s/^08-.*/5/p')
	[ -n "$n" ] || continue
	grep -n "include=\"solutions/stage$n/" "$ch" | while IFS=: read -r line _; do
		echo "$ch:$line: shows solutions/stage$n/, the answer to this chapter's own exercise; include exercises/stage$n/ instead"
	done
done > "${TMPDIR:-/tmp}/check-book-answers.$$"
while read -r l; do bad "$l"; done < "${TMPDIR:-/tmp}/check-book-answers.$$"
rm -f "${TMPDIR:-/tmp}/check-book-answers.$$"

[ -s "$html" ] || { bad "$html is missing or empty"; exit 1; }
perl -0777 -ne '
	my $ok = 1;
	# pandoc 2 embeds an image as a data: URI; pandoc 3 puts an SVG in
	# the page itself, an <svg> element (its ids made unique).
	my @img = /<img\b[^>]*>/g;
	my $svgs = () = /<svg\b/g;
	my $embedded = grep { /\bsrc="data:image\// } @img;
	print "IMG ", scalar(@img) + $svgs, " ", $embedded + $svgs, "\n";
	my %id = map { $_ => 1 } /\bid="([^"]+)"/g;
	for my $t (/\bhref="#([^"]+)"/g) { print "NOLINK $t\n" unless $id{$t} }
	for my $u (/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="(https?:[^"]+)"/g) { print "REMOTE $u\n" }
	print "UNFILLED\n" if /data-(?:include|run)=/;
	print "FENCE\n" if /(?:BEGIN|END) EXERCISE|\/\* STUB:/;
' "$html" > "${TMPDIR:-/tmp}/check-book.$$"
while read -r kind a b; do
	case $kind in
	IMG) [ "$a" = "$b" ] || bad "$html: $((a - b)) of $a images are not embedded"
	     [ "$a" -ge "$nfig" ] || bad "$html: the chapters reference $nfig figures, the HTML shows $a" ;;
	NOLINK) bad "$html: a link goes to #$a, which is not there" ;;
	REMOTE) bad "$html: loads $a from the network; the book must be one file" ;;
	UNFILLED) bad "$html: an include or run block was left unfilled" ;;
	FENCE) bad "$html: an excerpt shows an exercise fence (BEGIN/END EXERCISE, STUB)" ;;
	esac
done < "${TMPDIR:-/tmp}/check-book.$$"
rm -f "${TMPDIR:-/tmp}/check-book.$$"

# The PDF: tagged, titled as the HTML is, with an outline.
pdf=${html%.html}.pdf
if [ ! -s "$pdf" ]; then
	bad "$pdf is missing or empty"
else
	info=$(pdfinfo "$pdf" 2>&1) || bad "pdfinfo cannot read $pdf: $info"
	title=$(perl -0777 -ne 'print $1 if m{<title>\s*(.*?)\s*</title>}s' "$html")
	grep -qx 'Tagged: *yes' <<<"$info" || bad "$pdf is not tagged (pdfinfo: $(grep '^Tagged:' <<<"$info"))"
	got=$(sed -n 's/^Title: *//p' <<<"$info")
	[ -n "$title" ] && [ "$got" = "$title" ] || bad "$pdf: its title is '$got', the book's is '$title'"
	outline=$(pdftohtml -xml -i -stdout "$pdf" 2>/dev/null | grep -c '<item ')
	[ "$outline" -ge $# ] || bad "$pdf: its outline has $outline entries, fewer than the $# chapters"
	pages=$(sed -n 's/^Pages: *//p' <<<"$info")
fi

# The EPUB: epubcheck, through java -jar (/usr/bin/epubcheck is the jar
# itself, run by a binfmt_misc handler that a container or chroot lacks).
epub=${html%.html}.epub
if [ ! -s "$epub" ]; then
	bad "$epub is missing or empty"
else
	java -jar /usr/share/java/epubcheck.jar "$epub" >"${TMPDIR:-/tmp}/check-book-epub.$$" 2>&1
	st=$?
	if [ $st != 0 ] || ! grep -q '^Messages: 0 fatals / 0 errors' "${TMPDIR:-/tmp}/check-book-epub.$$"; then
		grep -E '^(FATAL|ERROR)' "${TMPDIR:-/tmp}/check-book-epub.$$" | head -n 5 >&2
		bad "$epub fails epubcheck (exit $st): $(grep -E '^Messages:|Error:' "${TMPDIR:-/tmp}/check-book-epub.$$" | head -n 1)"
	fi
	rm -f "${TMPDIR:-/tmp}/check-book-epub.$$"
fi

nin=$(cat "$@" | grep -c 'include="')
nrun=$(cat "$@" | grep -c 'run="')
[ $fail = 0 ] || { echo "check-book: FAILED" >&2; exit 1; }
echo "check-book: $# chapters, $nin includes, $nrun runs, $nfig figures: all resolve;" \
	"$html is $(du -k "$html" | cut -f1) KiB; $pdf is tagged, titled, $pages pages," \
	"with $outline outline entries; $epub passes epubcheck"
