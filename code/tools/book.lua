-- book.lua - a pandoc filter that joins the chapters (already through include.lua) into one book.
--
-- pandoc reads every chapter's JSON as one document; include.lua put an
-- empty Div (class "chapter-start", data-file=NAME.md) in front of each, so
-- this filter still knows which chapter a block came from.  It
--
--  * makes identifiers unique: a later chapter's "#the-design" becomes
--    "#02-owner-the-design" if an earlier chapter has one too, and links
--    inside that chapter follow it;
--  * turns links between chapters into links inside the book: "02-owner.md"
--    goes to that chapter's first heading, "02-owner.md#x" to x as that
--    chapter names it;
--  * fails, naming the chapter, on a link to a section that does not exist;
--  * makes every section of an unnumbered chapter ("# Title {.unnumbered}")
--    unnumbered too, so numbering restarts cleanly at the next chapter;
--  * drops the markers.

local errors = {}

local function fail(chapter, msg)
	errors[#errors + 1] = "chapters/" .. (chapter or "?") .. ": " .. msg
end

local function has_class(el, c)
	for _, x in ipairs(el.classes or {}) do
		if x == c then return true end
	end
	return false
end

function Pandoc(doc)
	-- Pass 1: split at the markers, collect each chapter's identifiers.
	local chapters = {}	-- in order: { file=, blocks= }
	local current
	for _, b in ipairs(doc.blocks) do
		if b.t == "Div" and has_class(b, "chapter-start") then
			current = { file = b.attributes.file, blocks = {} }
			chapters[#chapters + 1] = current
		else
			if not current then
				current = { file = "?", blocks = {} }
				chapters[#chapters + 1] = current
			end
			table.insert(current.blocks, b)
		end
	end

	local taken = {}	-- identifier -> chapter file that owns it
	local rename = {}	-- file -> { old id -> new id }
	local first_id = {}	-- file -> id of its first heading
	for _, ch in ipairs(chapters) do
		local map = {}
		rename[ch.file] = map
		local slug = ch.file:gsub("%.md$", "")
		local function claim(el)
			local id = el.identifier
			if not id or id == "" then return nil end
			if map[id] then return nil end
			local new = id
			if taken[id] then new = slug .. "-" .. id end
			if taken[new] then
				fail(ch.file, "identifier #" .. id .. " is used twice in this chapter")
				return nil
			end
			taken[new] = ch.file
			map[id] = new
			if new ~= id then
				el.identifier = new
				return el
			end
			return nil
		end
		local walked = pandoc.Div(ch.blocks):walk({
			Header = function(h)
				if h.level == 1 and not first_id[ch.file] then first_id[ch.file] = h.identifier end
				return claim(h)
			end,
			Div = claim, Span = claim, CodeBlock = claim,
		})
		ch.blocks = walked.content
		if first_id[ch.file] then first_id[ch.file] = map[first_id[ch.file]] or first_id[ch.file] end
	end

	-- Pass 2: resolve links, number sections.
	local out = {}
	for _, ch in ipairs(chapters) do
		local map = rename[ch.file]
		local unnumbered = false
		local walked = pandoc.Div(ch.blocks):walk({
			Link = function(l)
				local t = l.target
				local file, frag = t:match("^([%w_%-]+%.md)#?(.*)$")
				if file then
					if not rename[file] then
						fail(ch.file, "link to " .. t .. ": no chapter " .. file .. " in the book")
						return nil
					end
					local id = frag ~= "" and rename[file][frag] or (frag == "" and first_id[file])
					if not id then
						fail(ch.file, "link to " .. t .. ": " .. file .. " has no section #" .. frag)
						return nil
					end
					l.target = "#" .. id
					return l
				end
				local id = t:match("^#(.+)$")
				if id then
					if map[id] then
						l.target = "#" .. map[id]
						return l
					end
					if not taken[id] then fail(ch.file, "link to #" .. id .. ": no such section in the book") end
				end
				return nil
			end,
		})
		for _, b in ipairs(walked.content) do
			if b.t == "Header" then
				if b.level == 1 then unnumbered = has_class(b, "unnumbered") end
				if unnumbered and not has_class(b, "unnumbered") then
					b.classes:insert("unnumbered")
				end
			end
			out[#out + 1] = b
		end
	end

	if #errors > 0 then
		for _, e in ipairs(errors) do io.stderr:write(e, "\n") end
		os.exit(1)
	end
	doc.blocks = out
	return doc
end
