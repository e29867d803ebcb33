-- sieve: the sieve of Eratosthenes over 2..1000, run `size` times (port of
-- sieve.sl), with a table indexed by integers.
local SIZE = 2 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local function sieve(limit)
  local flags = {}
  local i = 2
  while i <= limit do
    flags[i] = true
    i = i + 1
  end
  local sum = 0
  i = 2
  while i <= limit do
    if flags[i] then
      sum = sum + i
      local k = i + i
      while k <= limit do
        flags[k] = false
        k = k + i
      end
    end
    i = i + 1
  end
  return sum
end

local function run(size)
  local total = 0
  local r = 0
  while r < size do
    total = total + sieve(1000)
    r = r + 1
  end
  return total
end

local result = 0
for i = 0, ITERATIONS - 1 do
  local start = os.clock()
  result = run(SIZE)
  print(string.format("iteration %d %d", i, math.floor((os.clock() - start) * 1e9)))
end
print(string.format("checksum %d", result))
