-- vectors: records' computation with the step written in the loop (port of
-- vectors.sl). Vectors are tables with x, y and z. Lua 5.1 syntax:
-- lua5.4 and luajit.
local SIZE = 1000 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local function vec(x, y, z)
  local v = {}
  v.x = x
  v.y = y
  v.z = z
  return v
end

local function add(a, b)
  return vec(a.x + b.x, a.y + b.y, a.z + b.z)
end

local function scale(a, k)
  return vec(a.x * k, a.y * k, a.z * k)
end

local function cross(a, b)
  return vec(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
end

local function dot(a, b)
  return a.x * b.x + a.y * b.y + a.z * b.z
end

local function run(size)
  local sum = 0
  local k = 0
  local i = 0
  while i < size do
    local a = vec(k, k + 1, k + 2)
    local b = vec(3, k, 1)
    local c = add(scale(a, 2), cross(a, b))
    sum = sum + dot(c, b)
    k = k + 1
    if k == 100 then
      k = 0
    end
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
