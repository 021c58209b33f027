# ckxml.awk -v prefix=P - Check's XML log (CK_XML_LOG_FILE_NAME) as one line per test, in the order they ran:
#
#	SEQ <TAB> STATUS <TAB> NAME <TAB> FILE:LINE <TAB> TCASE
#
# SEQ counts from 1; STATUS is pass or fail (Check's "failure" and "error"
# alike).  The test's message, XML entities decoded, goes to the file
# P.SEQ.msg (a message may span lines).  Check writes one element per
# line, except a <message> that spans lines.
# (mawk, Debian's awk, has no strtonum)
function hex(s,    n, i) {
	n = 0
	for (i = 1; i <= length(s); i++)
		n = n * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
	return n
}
function decode(s,    out, m, c) {
	out = ""
	while (match(s, /&(lt|gt|amp|quot|apos|#x?[0-9a-fA-F]+);/)) {
		out = out substr(s, 1, RSTART - 1)
		m = substr(s, RSTART + 1, RLENGTH - 2)
		if (m == "lt") c = "<"
		else if (m == "gt") c = ">"
		else if (m == "amp") c = "&"
		else if (m == "quot") c = "\""
		else if (m == "apos") c = "'"
		else if (m ~ /^#x/) c = sprintf("%c", hex(substr(m, 3)))
		else c = sprintf("%c", substr(m, 2) + 0)
		out = out c
		s = substr(s, RSTART + RLENGTH)
	}
	return out s
}
function inner(line, tag) {
	sub("^[ \t]*<" tag ">", "", line)
	sub("</" tag ">[ \t]*$", "", line)
	return line
}
/<test result="/ {
	status = $0
	sub(/.*result="/, "", status)
	sub(/".*/, "", status)
	status = status == "success" ? "pass" : "fail"
	path = fn = id = tcase = msg = ""
}
/^[ \t]*<path>/ { path = inner($0, "path") }
/^[ \t]*<fn>/ { fn = inner($0, "fn") }
/^[ \t]*<id>/ { id = inner($0, "id") }
/^[ \t]*<description>/ { tcase = inner($0, "description") }
/^[ \t]*<message>/ {
	msg = $0
	sub(/^[ \t]*<message>/, "", msg)
	while (msg !~ /<\/message>[ \t]*$/ && (getline more) > 0)
		msg = msg "\n" more
	sub(/<\/message>[ \t]*$/, "", msg)
}
/<\/test>/ {
	where = (path != "" && path != "." ? path "/" : "") fn
	seq++
	printf "%d\t%s\t%s\t%s\t%s\n", seq, status, decode(id), where, decode(tcase)
	file = prefix "." seq ".msg"
	printf "%s\n", decode(msg) > file
	close(file)
}
