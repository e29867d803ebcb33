-- loop: one long counting loop at the top level (port of loop.sl).
local SIZE = 1000 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local result = 0
for i = 0, ITERATIONS - 1 do
  local start = os.clock()
  local x = 1
  local sum = 0
  local j = 0
  while j < SIZE do
    x = (x * 8121 + 28411) % 134456
    sum = sum + x
    j = j + 1
  end
  result = sum
  print(string.format("iteration %d %d", i, math.floor((os.clock() - start) * 1e9)))
end
print(string.format("checksum %d", result))
