#!/bin/bash
# render-figure.sh DOT SVG - draw one figure's DOT with this machine's Graphviz.
#
# The DOT (figures/NAME.dot, written by make figures from a traced run) is
# the figure: what it shows is checked there, byte for byte against the
# code.  The SVG is only its drawing, and every Graphviz release draws the
# same graph a little differently, so it is made here, at build time, never
# compared by its bytes.  What the drawing must keep is checked instead: every
# visible node and every visible edge of the DOT is in the SVG (Graphviz
# gives each its <title>: the node's name, "tail->head" for an edge), so a
# renderer that drops or renames one fails the build.
#
# The layout is the one the DOT's first line names ("render with: neato -n2
# -Tsvg" for lifelines, whose positions are fixed; dot otherwise).  The
# DOCTYPE line Graphviz writes is left out: it names the SVG 1.1 DTD, an
# external entity that EPUB 3 forbids (epubcheck counted hundreds of errors),
# and no browser reads it.
#
# Exit status: 0 written; 1 Graphviz failed or the drawing lost something.
set -u
[ $# = 2 ] || { echo "usage: render-figure.sh DOT SVG" >&2; exit 2; }
dot=$1 svg=$2
tmp=$svg.$$.tmp
trap 'rm -f "$tmp"' EXIT
case $(head -n 3 "$dot") in
*"render with: neato -n2"*) layout=(neato -n2 -Tsvg) ;;
*) layout=(dot -Tsvg) ;;
esac
"${layout[@]}" "$dot" | perl -0777 -pe 's/<!DOCTYPE[^>]*>\s*//' >"$tmp" && [ -s "$tmp" ] ||
	{ echo "render-figure: ${layout[0]} failed on $dot" >&2; exit 1; }
# What the DOT says is visible, and what the SVG drew: one name a line.
wanted=$(gvpr -q 'N[match($.style, "invis") < 0] { print(name) }
	E[match($.style, "invis") < 0] { print($.tail.name + "->" + $.head.name) }' "$dot" | sort)
drawn=$(perl -0777 -ne 'while (/<g id="[^"]*" class="(?:node|edge)">\s*<title>([^<]*)<\/title>/g) {
		my $t = $1; $t =~ s/&#45;/-/g; $t =~ s/&gt;/>/g; $t =~ s/&lt;/</g; $t =~ s/&quot;/"/g; $t =~ s/&amp;/&/g;
		print "$t\n" }' "$tmp" | sort)
if [ -z "$wanted" ] || [ "$wanted" != "$drawn" ]; then
	echo "render-figure: $svg does not draw what $dot says (< in the DOT only, > in the SVG only):" >&2
	diff <(echo "$wanted") <(echo "$drawn") | grep '^[<>]' | head -n 10 >&2
	exit 1
fi
mv "$tmp" "$svg"
