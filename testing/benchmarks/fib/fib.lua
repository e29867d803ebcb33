-- fib: naive recursive Fibonacci (port of fib.sl). Lua 5.1 syntax: lua5.4 and luajit.
local SIZE = 10 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local function fib(n)
  if n < 2 then
    return n
  end
  return fib(n - 1) + fib(n - 2)
end

local result = 0
for i = 0, ITERATIONS - 1 do
  local start = os.clock()
  result = fib(SIZE)
  print(string.format("iteration %d %d", i, math.floor((os.clock() - start) * 1e9)))
end
print(string.format("checksum %d", result))
