-- linkedlist: build, walk and drop a 10000-cell linked list, `size` times
-- (port of linkedlist.sl). Cells are tables with `value` and `next`. Lua 5.1
-- syntax: lua5.4 and luajit.
local SIZE = 10 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local function cons(value, next)
  local cell = {}
  cell.value = value
  cell.next = next
  return cell
end

local function build(length, round)
  local head = nil
  local i = length
  while i > 0 do
    i = i - 1
    head = cons(round + i, head)
  end
  return head
end

local function sum(list)
  local total = 0
  while list ~= nil do
    total = total + list.value
    list = list.next
  end
  return total
end

local function countOdd(list)
  local count = 0
  while list ~= nil do
    if list.value % 2 == 1 then
      count = count + 1
    end
    list = list.next
  end
  return count
end

local function run(size)
  local result = 0
  local round = 0
  while round < size do
    local list = build(10000, round)
    result = result + sum(list) + countOdd(list)
    round = round + 1
  end
  return result
end

local result = 0
for i = 0, ITERATIONS - 1 do
  local start = os.clock()
  result = run(SIZE)
  print(string.format("iteration %d %d", i, math.floor((os.clock() - start) * 1e9)))
end
print(string.format("checksum %d", result))
