-- binarytrees: the classic binary-trees allocation benchmark (port of
-- binarytrees.sl). Nodes are tables with `left` and `right`; a leaf has nil
-- children. Lua 5.1 syntax: lua5.4 and luajit.
local SIZE = 6 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local function treeNode(left, right)
  local t = {}
  t.left = left
  t.right = right
  return t
end

local function bottomUpTree(depth)
  if depth > 0 then
    return treeNode(bottomUpTree(depth - 1), bottomUpTree(depth - 1))
  end
  return treeNode(nil, nil)
end

local function check(tree)
  if tree.left == nil then
    return 1
  end
  return 1 + check(tree.left) + check(tree.right)
end

local function binarytrees(size)
  local minDepth = 4
  local maxDepth = size
  if maxDepth < minDepth + 2 then
    maxDepth = minDepth + 2
  end
  local total = check(bottomUpTree(maxDepth + 1))
  local longLived = bottomUpTree(maxDepth)
  local depth = minDepth
  while depth <= maxDepth do
    local iterations = 2 ^ (maxDepth - depth + minDepth)
    local sum = 0
    local i = 0
    while i < iterations do
      sum = sum + check(bottomUpTree(depth))
      i = i + 1
    end
    total = total + sum
    depth = depth + 2
  end
  return total + check(longLived)
end

local result = 0
for i = 0, ITERATIONS - 1 do
  local start = os.clock()
  result = binarytrees(SIZE)
  print(string.format("iteration %d %d", i, math.floor((os.clock() - start) * 1e9)))
end
print(string.format("checksum %d", result))
