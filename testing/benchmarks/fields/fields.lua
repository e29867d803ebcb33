-- fields: object field access in a hot function (port of fields.sl).
local SIZE = 1000 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local function makePoint(x, y, dx, dy)
  local p = {}
  p.x = x
  p.y = y
  p.dx = dx
  p.dy = dy
  return p
end

local function step(p)
  p.x = p.x + p.dx
  if p.x >= 1000 then
    p.x = p.x - 1000
  end
  p.y = p.y + p.dy
  if p.y >= 1000 then
    p.y = p.y - 1000
  end
  return p.x * 3 + p.y
end

local function run(size)
  local a = makePoint(1, 2, 3, 5)
  local b = makePoint(10, 20, 7, 11)
  local c = makePoint(100, 200, 13, 17)
  local sum = 0
  local i = 0
  while i < size do
    sum = sum + step(a) + step(b) + step(c)
    i = i + 1
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
