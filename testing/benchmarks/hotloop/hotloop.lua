-- hotloop: a counting loop in a function called many times (port of hotloop.sl).
local SIZE = 1000 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local function work(n)
  local i = 0
  local s = 0
  while i < n do
    s = s + (i * 7 - math.floor(i / 3))
    i = i + 1
  end
  return s
end

local function run(size)
  local c = 0
  local k = 0
  while k < size do
    local n = 500 + k % 100
    c = (c * 31 + work(n)) % 1000000007
    k = k + 1
  end
  return c
end

local result = 0
for i = 0, ITERATIONS - 1 do
  local start = os.clock()
  result = run(SIZE)
  print(string.format("iteration %d %d", i, math.floor((os.clock() - start) * 1e9)))
end
print(string.format("checksum %d", result))
