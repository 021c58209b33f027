#!/bin/bash
# render-figure-test.sh - render-figure.sh fails when a drawing loses a node or an edge.
#
# A Graphviz stand-in first on PATH draws the real thing, then drops one
# node's or one edge's group from the SVG, as a renderer that mislaid it
# would: render-figure.sh must refuse both, and accept the real drawing,
# without its DOCTYPE line (an external entity, which EPUB 3 forbids).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cat >"$tmp/fig.dot" <<'DOT'
// a test figure; render with: dot -Tsvg
digraph t { a -> b; b -> c; hidden [style=invis]; }
DOT
real_dot=$(command -v dot)
# stand_in CLASS - a "dot" that drops the first <g> of CLASS (node or edge).
stand_in() {
	mkdir -p "$tmp/$1"
	printf '#!/bin/sh\n%s "$@" | perl -0777 -pe '\''s/<g id="[^"]*" class="%s">.*?<\\/g>//s'\''\n' \
		"$real_dot" "$1" >"$tmp/$1/dot"
	chmod +x "$tmp/$1/dot"
}
for class in node edge; do
	stand_in $class
	if PATH=$tmp/$class:$PATH code/tools/render-figure.sh "$tmp/fig.dot" "$tmp/$class.svg" 2>"$tmp/$class.err"; then
		echo "render-figure-test: FAIL: a drawing without one $class was accepted" >&2; fail=1
	elif [ -e "$tmp/$class.svg" ]; then
		echo "render-figure-test: FAIL: the drawing without one $class was written anyway" >&2; fail=1
	fi
done
if ! code/tools/render-figure.sh "$tmp/fig.dot" "$tmp/ok.svg"; then
	echo "render-figure-test: FAIL: the real drawing was refused" >&2; fail=1
elif grep -q '<!DOCTYPE' "$tmp/ok.svg"; then
	echo "render-figure-test: FAIL: the drawing keeps its DOCTYPE" >&2; fail=1
fi
[ $fail = 0 ] && echo "render-figure-test: a drawing that loses a node or an edge is refused; the real one is drawn, without its DOCTYPE"
exit $fail
