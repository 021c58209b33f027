#!/bin/bash
# check-book-browser.sh HTML OUTDIR - open the book in headless Chromium: is every figure shown?
#
# A copy of the book gets a few lines of JavaScript at its end that look at
# every <img> once the page has loaded: loaded, and with a size, or not
# (and every <svg> of a figure, as pandoc 3 embeds them: drawn, with a size).
# Chromium runs it with --dump-dom, and the verdict is read back from the
# DOM.  It also takes a screenshot of the page top and of the first figure,
# OUTDIR/top.png and OUTDIR/figure.png (the first figure alone), for a
# human to look at.
# Nothing is fetched from the network: the book is one file.
set -u
html=$1 out=$2
command -v chromium >/dev/null || { echo "check-book-browser: chromium is not installed (code/tools/deps.sh chromium)" >&2; exit 2; }
[ -s "$html" ] || { echo "check-book-browser: $html is missing" >&2; exit 1; }
mkdir -p "$out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

probe=$out/probe.html
sed 's|</body>|<script>\
window.addEventListener("load", function () {\
  var imgs = document.querySelectorAll("img, figure svg"), ok = 0, bad = [];\
  for (var i = 0; i < imgs.length; i++) {\
    var im = imgs[i], shown = im.getBoundingClientRect().width > 0;\
    if (im.tagName.toLowerCase() == "img" ? im.complete \&\& im.naturalWidth > 0 \&\& shown : shown \&\& im.querySelector("g")) ok++;\
    else bad.push((im.getAttribute("alt") \|\| "?").slice(0, 60));\
  }\
  var p = document.createElement("pre"); p.id = "figure-check";\
  p.textContent = "FIGURES " + imgs.length + " " + ok + (bad.length ? " BROKEN " + bad.join(" \| ") : "");\
  document.body.appendChild(p);\
});\
</script></body>|' "$html" > "$probe"

chrome() {
	timeout -k 5 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
		--allow-file-access-from-files "$@" 2>/dev/null
}

start=$SECONDS
verdict=$(chrome --virtual-time-budget=5000 --dump-dom "file://$(realpath "$probe")" |
	grep -o 'id="figure-check">FIGURES [^<]*' | sed 's/^[^>]*>//')
chrome --window-size=1100,1400 --screenshot="$(realpath "$out")/top.png" "file://$(realpath "$html")" >/dev/null
# The first figure on a page of its own, as the book shows it.
perl -0777 -ne 'print "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>body{font-family:serif;margin:20px} img{max-width:100%}</style></head><body>$1</body></html>\n" if m{(<figure\b.*?</figure>)}s' \
	"$html" > "$out/figure.html"
[ -s "$out/figure.html" ] && chrome --window-size=1100,900 --screenshot="$(realpath "$out")/figure.png" \
	"file://$(realpath "$out/figure.html")" >/dev/null
secs=$((SECONDS - start))

read -r _ total ok rest <<<"$verdict"
if [ -z "$verdict" ]; then
	echo "check-book-browser: Chromium did not report on the figures (no verdict in the DOM)" >&2; exit 1
fi
if [ "$total" != "$ok" ] || [ "$total" = 0 ]; then
	echo "check-book-browser: $ok of $total figures shown; ${rest:-}" >&2; exit 1
fi
echo "check-book-browser: Chromium shows all $total figures of $html (${secs} s);" \
	"screenshots: $out/top.png, $out/figure.png"
