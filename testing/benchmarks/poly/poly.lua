-- poly: one polymorphic callee called with numbers and strings (port of
-- poly.sl). add() implements SL's `+`: numeric addition for two numbers,
-- otherwise concatenation.
local SIZE = 1000 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local function add(a, b)
  if type(a) == "number" and type(b) == "number" then
    return a + b
  end
  return tostring(a) .. tostring(b)
end

local function numbers(n)
  local s = 0
  local i = 0
  while i < n do
    s = add(s, i)
    i = i + 1
  end
  return s
end

local function labels(n)
  local hits = 0
  local i = 0
  while i < n do
    if add("k", i % 10) == "k7" then
      hits = hits + 1
    end
    i = i + 1
  end
  return hits
end

local function words(n)
  local hits = 0
  local i = 0
  while i < n do
    if add("ab", "cd") == "abcd" then
      hits = hits + 1
    end
    i = i + 1
  end
  return hits
end

local function run(size)
  return numbers(size) + labels(size) * 1000 + words(size)
end

local result = 0
for i = 0, ITERATIONS - 1 do
  local start = os.clock()
  result = run(SIZE)
  print(string.format("iteration %d %d", i, math.floor((os.clock() - start) * 1e9)))
end
print(string.format("checksum %d", result))
