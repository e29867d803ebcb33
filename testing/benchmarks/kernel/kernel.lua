-- kernel: Collatz step counts over 1..size in a hot function (port of kernel.sl).
local SIZE = 1000 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local function collatz(n)
  local steps = 0
  while n > 1 do
    if n % 2 == 0 then
      n = math.floor(n / 2)
    else
      n = 3 * n + 1
    end
    steps = steps + 1
  end
  return steps
end

local function run(size)
  local sum = 0
  local n = 1
  while n <= size do
    sum = sum + collatz(n)
    n = n + 1
  end
  return sum
end

local result = 0
for i = 0, ITERATIONS - 1 do
  local start = os.clock()
  result = run(SIZE)
  print(string.format("iteration %d %d", i, math.floor((os.clock() - start) * 1e9)))
end
print(string.format("checksum %d", result))
