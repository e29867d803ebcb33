-- strings: string building by concatenation in a loop (port of strings.sl).
local SIZE = 50 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local function build(n)
  local s = ""
  local i = 0
  while i < n do
    s = s .. i .. ","
    i = i + 1
  end
  return s
end

local function buildRange(lo, hi)
  if hi - lo == 1 then
    return lo .. ","
  end
  local mid = math.floor((lo + hi) / 2)
  return buildRange(lo, mid) .. buildRange(mid, hi)
end

local function run(size)
  local reference = buildRange(0, size)
  local matches = 0
  local round = 0
  while round < 10 do
    if build(size) == reference then
      matches = matches + 1
    end
    round = round + 1
  end
  local literal = 0
  if build(12) == "0,1,2,3,4,5,6,7,8,9,10,11," then
    literal = 1
  end
  return size * 10000 + matches * 10 + literal
end

local result = 0
for i = 0, ITERATIONS - 1 do
  local start = os.clock()
  result = run(SIZE)
  print(string.format("iteration %d %d", i, math.floor((os.clock() - start) * 1e9)))
end
print(string.format("checksum %d", result))
