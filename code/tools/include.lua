-- include.lua - a pandoc filter: the code a chapter shows comes from the tested sources.
--
-- A chapter never pastes code.  It leaves an empty fenced block whose
-- attributes say what to fetch, and this filter fills it in at build time:
--
--   {.c include="PATH"}                    the whole file
--   {.c include="PATH" fn="a,b"}           C function definitions, in that order
--   {.c include="PATH" struct="name"}      a struct definition
--   {.c include="PATH" define="NAME"}      a #define, with its continuation lines
--   {.c include="PATH" marker="NAME"}      the lines between one containing [NAME]
--                                          and one containing [/NAME]
--   {.console run="stageN SCRIPT" exit="N" [from="ERE"] [to="ERE"] [args="..."]}
--                                          what build/stageN/ksim printed on SCRIPT
--                                          (stdout and stderr, in order); the exit
--                                          status must be N
--   {.console cmd="build/PROGRAM ARGS" exit="N" [from="ERE"] [to="ERE"]}
--                                          the same for another program of the
--                                          build (the schedule explorer of a stage
--                                          or of a mistake's build, say)
--
-- The fences of an exercise in a solution file (BEGIN EXERCISE, STUB, END
-- EXERCISE comment lines) are left out of every excerpt.
--
-- fn=, struct= and define= start at the definition's first line (a kerneldoc or
-- other comment directly above it comes along: it says why) and end at the
-- closing brace in column 0, kernel style.  from=/to= are extended regular
-- expressions (awk): the output is cut to the first line matching from and the
-- first line after it matching to, both included.  Scenario scripts (.ksh,
-- .ksim) are shown as shell, whatever class the block names.
--
-- Images must be files under figures/ that exist: figures/NAME.svg, or a
-- figure drawn from a trace, figures/NAME.dot, shown as BUILD/figures/NAME.svg.  The filter also puts an
-- empty marker Div (class "chapter-start", data-file=NAME.md) before the
-- chapter, so that book.lua can resolve links between chapters.
--
-- Every problem is reported as "CHAPTER:LINE: include ...: what is wrong"; all
-- of a chapter's problems are listed, then pandoc exits with status 1.
--
-- Environment: BOOK_DEPS=FILE writes make dependencies (every file the chapter
-- pulled in); BOOK_BUILD is the build directory (default "build").

local chapter = (PANDOC_STATE.input_files or {})[1] or "<stdin>"
local chapter_name = chapter:match("([^/]+)$")
local build = os.getenv("BOOK_BUILD") or "build"
local errors = {}
local deps = {}
local source_lines = {}

do
	local f = io.open(chapter, "r")
	if f then
		for l in (f:read("a") .. "\n"):gmatch("([^\n]*)\n") do
			source_lines[#source_lines + 1] = l
		end
		f:close()
	end
end

-- where(key) - the chapter line of the next block whose source contains key.
local seen = {}
local function where(key)
	local skip = seen[key] or 0
	seen[key] = skip + 1
	for i, l in ipairs(source_lines) do
		if l:find(key, 1, true) then
			if skip == 0 then return i end
			skip = skip - 1
		end
	end
	return nil
end

local function fail(line, what, msg)
	errors[#errors + 1] = string.format("%s:%s: %s: %s", chapter, line or "?", what, msg)
end

local function read_lines(path)
	local f = io.open(path, "r")
	if not f then return nil end
	local text = f:read("a")
	f:close()
	local lines = {}
	for l in (text .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = l end
	if lines[#lines] == "" then lines[#lines] = nil end
	return lines
end

local function expand_tabs(l)
	local out, col = {}, 0
	for ch in l:gmatch(".") do
		if ch == "\t" then
			local n = 8 - col % 8
			out[#out + 1] = string.rep(" ", n)
			col = col + n
		else
			out[#out + 1] = ch
			col = col + 1
		end
	end
	return table.concat(out)
end

local function escape_pattern(s)
	return (s:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0"))
end

-- with_comment(lines, first) - move first up over a comment block that ends
-- directly above it (no blank line between).
local function with_comment(lines, first)
	local above = lines[first - 1]
	if above and above:match("%*/%s*$") then
		for j = first - 1, 1, -1 do
			if lines[j]:match("^%s*/%*") then return j end
		end
	end
	return first
end

-- after_close(lines, i, pos) - from the '(' at lines[i]:sub(pos), skip the
-- balanced parameter list and return the first of '{' or ';' after it, and
-- the line where it is.
local function after_close(lines, i, pos)
	local depth = 0
	local started = false
	while lines[i] do
		local l = lines[i]
		while pos <= #l do
			local c = l:sub(pos, pos)
			if c == "(" then
				depth = depth + 1
				started = true
			elseif c == ")" then
				depth = depth - 1
			elseif started and depth == 0 and (c == "{" or c == ";") then
				return c, i, pos
			end
			pos = pos + 1
		end
		i, pos = i + 1, 1
	end
	return nil
end

-- block_end(lines, i, pos) - the line of the '}' that closes the '{' at
-- lines[i]:sub(pos): the same line if it balances there, else the first
-- later line that starts with '}' (kernel style: the closing brace of a
-- top-level definition is in column 0).
local function block_end(lines, i, pos)
	local rest = lines[i]:sub(pos)
	local _, opens = rest:gsub("{", "")
	local _, closes = rest:gsub("}", "")
	if opens == closes then return i end
	for k = i + 1, #lines do
		if lines[k]:match("^}") then return k end
	end
	return nil
end

local function find_function(lines, name)
	local pat = "%f[%w_]" .. escape_pattern(name) .. "%s*%("
	for i, l in ipairs(lines) do
		if l:match("^[%a_]") then
			local s, e = l:find(pat)
			if s then
				local c, bi, bpos = after_close(lines, i, e)
				if c == "{" then
					local last = block_end(lines, bi, bpos)
					if not last then return nil, "no closing brace in column 0 after line " .. i end
					local first = i
					-- "static int\nname(...)": the type is on the line above.
					if s == 1 and lines[i - 1] and lines[i - 1]:match("^[%a_]")
						and not lines[i - 1]:match("[;}]%s*$") then
						first = i - 1
					end
					return with_comment(lines, first), last
				end
			end
		end
	end
	return nil, "no definition of " .. name .. "()"
end

local function find_struct(lines, name)
	local pat = "^%s*[%w_ ]*struct%s+" .. escape_pattern(name) .. "%s*{"
	for i, l in ipairs(lines) do
		if l:match("^[%a_]") and l:match(pat) then
			for k = i + 1, #lines do
				if lines[k]:match("^}") then return with_comment(lines, i), k end
			end
			return nil, "struct " .. name .. " has no closing brace in column 0"
		end
	end
	return nil, "no definition of struct " .. name
end

local function find_define(lines, name)
	local pat = "^#%s*define%s+" .. escape_pattern(name) .. "%f[^%w_]"
	for i, l in ipairs(lines) do
		if l:match(pat) then
			local k = i
			while lines[k]:match("\\%s*$") and lines[k + 1] do k = k + 1 end
			return with_comment(lines, i), k
		end
	end
	return nil, "no #define " .. name
end

local function find_marker(lines, name)
	local open, close = "[" .. name .. "]", "[/" .. name .. "]"
	local first, last
	for i, l in ipairs(lines) do
		if l:find(open, 1, true) then
			if first then return nil, "marker " .. open .. " appears twice (lines " .. first .. " and " .. i .. ")" end
			first = i
		elseif l:find(close, 1, true) then
			if not first then return nil, "marker " .. close .. " comes before " .. open end
			if not last then last = i end
		end
	end
	if not first then return nil, "no line contains " .. open end
	if not last then return nil, "no line contains " .. close .. " after " .. open end
	if last == first + 1 then return nil, "nothing between " .. open .. " and " .. close end
	return first + 1, last - 1
end

local function trim_blank(out)
	while out[1] and out[1]:match("^%s*$") do table.remove(out, 1) end
	while out[#out] and out[#out]:match("^%s*$") do table.remove(out) end
	return out
end

local function dedent(out)
	local min
	for _, l in ipairs(out) do
		if l:match("%S") then
			local n = #l:match("^ *")
			if not min or n < min then min = n end
		end
	end
	if min and min > 0 then
		for i, l in ipairs(out) do out[i] = l:sub(min + 1) end
	end
	return out
end

local known = {
	include = true, fn = true, struct = true, define = true, marker = true,
	run = true, exit = true, from = true, to = true, args = true, cmd = true,
}

local function describe(attrs)
	local parts = { attrs.include and ("include " .. attrs.include) or
		attrs.cmd and ("cmd " .. attrs.cmd) or ("run " .. (attrs.run or "")) }
	for _, k in ipairs({ "fn", "struct", "define", "marker", "exit", "from", "to", "args" }) do
		if attrs[k] then parts[#parts + 1] = k .. "=" .. attrs[k] end
	end
	return table.concat(parts, " ")
end

local function listing(caption, block)
	return pandoc.Div({
		pandoc.Para({ pandoc.Code(caption) }),
		block,
	}, pandoc.Attr("", { "listing" }))
end

local function do_include(el, line, what)
	local a = el.attributes
	local path = a.include
	deps[path] = true
	local lines = read_lines(path)
	if not lines then return fail(line, what, "cannot read " .. path) end
	local selectors = 0
	for _, k in ipairs({ "fn", "struct", "define", "marker" }) do
		if a[k] then selectors = selectors + 1 end
	end
	if selectors > 1 then return fail(line, what, "give one of fn=, struct=, define=, marker=") end

	local out, caption = {}, path
	-- An exercise's fence (BEGIN EXERCISE, STUB, END EXERCISE comments,
	-- code/tools/mkexercise.awk) is tooling, not code: a reference excerpt
	-- shows without it.
	local function take(first, last)
		for i = first, last do
			local l = lines[i]
			if not (l:match("^%s*/%* BEGIN EXERCISE .*%*/%s*$") or l:match("^%s*/%* STUB: .*%*/%s*$")
				or l:match("^%s*/%* END EXERCISE %*/%s*$")) then
				out[#out + 1] = expand_tabs(l)
			end
		end
	end
	if a.fn then
		local names = {}
		for n in a.fn:gmatch("[^,%s]+") do names[#names + 1] = n end
		if #names == 0 then return fail(line, what, "fn= names no function") end
		for k, n in ipairs(names) do
			local first, last = find_function(lines, n)
			if not first then return fail(line, what, last .. " in " .. path) end
			if k > 1 then out[#out + 1] = "" end
			take(first, last)
		end
		caption = path .. ": " .. table.concat(names, "(), ") .. "()"
	elseif a.struct then
		local first, last = find_struct(lines, a.struct)
		if not first then return fail(line, what, last .. " in " .. path) end
		take(first, last)
		caption = path .. ": struct " .. a.struct
	elseif a.define then
		local first, last = find_define(lines, a.define)
		if not first then return fail(line, what, last .. " in " .. path) end
		take(first, last)
		caption = path .. ": " .. a.define
	elseif a.marker then
		local first, last = find_marker(lines, a.marker)
		if not first then return fail(line, what, last .. " in " .. path) end
		take(first, last)
		dedent(out)
	else
		take(1, #lines)
	end
	trim_blank(out)

	local classes = el.classes
	if path:match("%.ksh$") or path:match("%.ksim$") then classes = { "bash" } end
	local block = pandoc.CodeBlock(table.concat(out, "\n"), pandoc.Attr(el.identifier, classes))
	return listing(caption, block)
end

local function shell_quote(s)
	return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- matching_lines(file, ere) - the numbers of the lines of file that match.
local function matching_lines(file, ere)
	local p = io.popen("RE=" .. shell_quote(ere) ..
		" awk 'BEGIN { re = ENVIRON[\"RE\"] } $0 ~ re { print NR }' " .. shell_quote(file))
	local nums = {}
	for n in p:lines() do nums[#nums + 1] = tonumber(n) end
	p:close()
	return nums
end

local function show_run(el, line, what, ksim, cmd, caption)
	local a = el.attributes
	local want = tonumber(a.exit or "")
	if not want then return fail(line, what, 'want exit="N": the exit status the run must end with') end
	local p = io.popen(cmd)
	local lines = {}
	for l in p:lines() do lines[#lines + 1] = l end
	p:close()
	-- Output without a final newline leaves the marker at the end of its last line.
	local rest, code = (table.remove(lines) or ""):match("^(.-)@@ksim%-exit (%d+)$")
	if rest and rest ~= "" then lines[#lines + 1] = rest end
	local status = tonumber(code or "")
	local out = os.tmpname()
	local f = assert(io.open(out, "w"))
	f:write(table.concat(lines, "\n"), "\n")
	f:close()

	local function finish(msg)
		os.remove(out)
		if msg then fail(line, what, msg) end
	end
	if not status then return finish("could not run " .. ksim) end
	if status == 124 then return finish(ksim .. " did not finish within 120 s") end
	if status ~= want then
		local tail = {}
		for i = math.max(1, #lines - 9), #lines do tail[#tail + 1] = "    | " .. lines[i] end
		return finish(string.format("exit status %d, expected %d; the run ended with:\n%s",
			status, want, table.concat(tail, "\n")))
	end
	local first, last = 1, #lines
	if a.from then
		local m = matching_lines(out, a.from)
		if #m == 0 then return finish("from=/" .. a.from .. "/ matches no line of the output") end
		first = m[1]
	end
	if a.to then
		local m = matching_lines(out, a.to)
		local found
		for _, n in ipairs(m) do
			if n > first or (not a.from and n >= first) then found = n break end
		end
		if not found then return finish("to=/" .. a.to .. "/ matches no line after line " .. first .. " of the output") end
		last = found
	end
	finish(nil)
	local shown = {}
	for i = first, last do shown[#shown + 1] = expand_tabs(lines[i]) end

	caption = string.format("%s  (exit status %d)", caption, status)
	local block = pandoc.CodeBlock(table.concat(shown, "\n"), pandoc.Attr(el.identifier, el.classes))
	return listing(caption, block)
end

local function do_run(el, line, what)
	local a = el.attributes
	local stage, script = a.run:match("^%s*(stage%d+)%s+(%S+)%s*$")
	if not stage then return fail(line, what, 'want run="stageN SCRIPT"') end
	local ksim = build .. "/" .. stage .. "/ksim"
	deps[ksim] = true
	deps[script] = true
	if not io.open(ksim, "r") then return fail(line, what, ksim .. " is not built (make " .. ksim .. ")") end
	if not io.open(script, "r") then return fail(line, what, "cannot read " .. script) end
	-- A script that holds a window open (delay, sleep) runs under the
	-- controlled scheduler, on virtual time, as make check grades it: on a
	-- busy machine a free run can lose its window, and the book would show
	-- another story than the one told around it.  Not a script that hangs
	-- (exit 4): the scheduler would report its deadlock at once, in other
	-- words than the hung-task watchdog the chapter shows.
	local args = a.args
	local text = io.open(script, "r"):read("a")
	if (text:match("\n%s*delay%s") or text:match("\n%s*sleep%s")) and a.exit ~= "4"
		and not (args and args:match("%-%-sched")) then
		args = "--sched nonpreemptive" .. (args and (" " .. args) or "")
	end
	-- A pipe, not a file, for ksim's output: "--trace /dev/stdout" then
	-- appends to the same stream instead of writing over it from offset 0.
	local cmd = string.format("timeout -k 5 120 %s %s %s 2>&1 </dev/null; echo \"@@ksim-exit $?\"",
		shell_quote(ksim), args or "", shell_quote(script))
	return show_run(el, line, what, ksim, cmd,
		string.format("%s %s%s", ksim, args and (args .. " ") or "", script))
end

local function do_cmd(el, line, what)
	local a = el.attributes
	local prog, args = a.cmd:match("^%s*(build/%S+)%s*(.-)%s*$")
	if not prog then return fail(line, what, 'want cmd="build/PROGRAM ARGS": a program the build made') end
	if args:find("[;&|`$<>]") then return fail(line, what, "cmd= takes a program and plain arguments") end
	deps[prog] = true
	if not io.open(prog, "r") then return fail(line, what, prog .. " is not built (make " .. prog .. ")") end
	local cmd = string.format("timeout -k 5 120 %s %s 2>&1 </dev/null; echo \"@@ksim-exit $?\"",
		shell_quote(prog), args)
	return show_run(el, line, what, prog, cmd, prog .. " " .. args)
end

function CodeBlock(el)
	local a = el.attributes
	if not a.include and not a.run and not a.cmd then return nil end
	local what = describe(a)
	local line = where(a.include and ('include="' .. a.include .. '"') or
		a.cmd and ('cmd="' .. a.cmd .. '"') or ('run="' .. a.run .. '"'))
	for k, _ in pairs(a) do
		if not known[k] then return fail(line, what, "unknown attribute " .. k .. "=") end
	end
	if el.text:match("%S") then
		return fail(line, what, "the block must be empty: its text comes from the source")
	end
	if (a.include and 1 or 0) + (a.run and 1 or 0) + (a.cmd and 1 or 0) > 1 then
		return fail(line, what, "give one of include=, run= and cmd=")
	end
	if a.include then return do_include(el, line, what) end
	if a.cmd then return do_cmd(el, line, what) end
	return do_run(el, line, what)
end

function Image(el)
	local src = el.src:gsub("^%.%./", "")
	local line = where("(" .. el.src .. ")") or where(el.src)
	local what = "figure " .. el.src
	if not src:match("^figures/[^/]+$") then
		fail(line, what, "a figure must be a file in figures/ (write figures/NAME.svg)")
		return nil
	end
	-- A figure drawn from a trace is committed as its DOT, figures/NAME.dot;
	-- make draws it into BUILD/figures/NAME.svg (figures/figures.mk) before
	-- the chapters are joined.  Others (make bench's plots) are committed SVGs.
	local dot = src:gsub("%.svg$", ".dot")
	local f = io.open(src, "r")
	if f then
		f:close()
		deps[src] = true
		el.src = src
	elseif dot ~= src and io.open(dot, "r") then
		deps[dot] = true
		el.src = build .. "/figures/" .. dot:match("([^/]+)%.dot$") .. ".svg"
	else
		fail(line, what, src .. " does not exist, nor " .. dot ..
			": is it in figures/figures.list, and has `make figures` run?")
		return nil
	end
	return el
end

function Link(el)
	local file = el.target:match("^([%w_%-]+%.md)")
	if not file then return nil end
	local path = "chapters/" .. file
	deps[path] = true
	if not io.open(path, "r") then
		fail(where("(" .. el.target .. ")"), "link " .. el.target, "no chapter " .. path)
	end
	return nil
end

function Pandoc(doc)
	if #errors > 0 then
		for _, e in ipairs(errors) do io.stderr:write(e, "\n") end
		io.stderr:write(string.format("%s: %d problem%s with includes, runs, figures or links\n",
			chapter, #errors, #errors == 1 and "" or "s"))
		os.exit(1)
	end
	local dfile = os.getenv("BOOK_DEPS")
	if dfile then
		local target = os.getenv("BOOK_TARGET") or "book"
		local names = {}
		for k, _ in pairs(deps) do names[#names + 1] = k end
		table.sort(names)
		local f = assert(io.open(dfile, "w"))
		f:write(target, ": ", chapter, " ", table.concat(names, " "), "\n")
		for _, n in ipairs(names) do f:write(n, ":\n") end
		f:close()
	end
	table.insert(doc.blocks, 1, pandoc.Div({}, pandoc.Attr("", { "chapter-start" }, { file = chapter_name })))
	return doc
end
