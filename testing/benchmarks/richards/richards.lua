-- richards: Martin Richards' OS simulation (port of richards.sl, which
-- follows the Are-We-Fast-Yet version). Same structure as the SL program:
-- tasks are tables with an `fn` field, no closures, arithmetic xorD008().
local SIZE = 1000 -- BENCH:SIZE
local ITERATIONS = 1 -- BENCH:ITERATIONS

local function newPacket(link, identity, kind)
  local p = {}
  p.link = link
  p.identity = identity
  p.kind = kind
  p.datum = 0
  p.data = {[0] = 0, 0, 0, 0}
  return p
end

local function append(packet, head)
  packet.link = nil
  if head == nil then
    return packet
  end
  local mouse = head
  while true do
    local link = mouse.link
    if link == nil then
      break
    end
    mouse = link
  end
  mouse.link = packet
  return head
end

local function flipBit(v, bit)
  local q = math.floor(v / bit)
  if q % 2 == 1 then
    return v - bit
  end
  return v + bit
end

local function xorD008(v)
  return flipBit(flipBit(flipBit(flipBit(v, 32768), 16384), 4096), 8)
end

local function createTask(s, identity, priority, input, packetPending, taskWaiting, fn, data)
  local t = {}
  t.link = s.taskList
  t.identity = identity
  t.priority = priority
  t.input = input
  t.packetPending = packetPending
  t.taskWaiting = taskWaiting
  t.taskHolding = false
  t.fn = fn
  t.data = data
  s.taskList = t
  s.taskTable[identity] = t
end

local function isTaskHoldingOrWaiting(t)
  if t.taskHolding then
    return true
  end
  if t.packetPending then
    return false
  end
  return t.taskWaiting
end

local function isWaitingWithPacket(t)
  if t.taskHolding then
    return false
  end
  return t.packetPending and t.taskWaiting
end

local function addInputAndCheckPriority(t, packet, oldTask)
  if t.input == nil then
    t.input = packet
    t.packetPending = true
    if t.priority > oldTask.priority then
      return t
    end
  else
    t.input = append(packet, t.input)
  end
  return oldTask
end

local function runTask(s, t)
  local message = nil
  if isWaitingWithPacket(t) then
    message = t.input
    t.input = message.link
    if t.input == nil then
      t.packetPending = false
    else
      t.packetPending = true
    end
    t.taskWaiting = false
    t.taskHolding = false
  end
  return t.fn(s, message, t.data)
end

local function holdSelf(s)
  s.holdCount = s.holdCount + 1
  s.currentTask.taskHolding = true
  return s.currentTask.link
end

local function markWaiting(s)
  s.currentTask.taskWaiting = true
  return s.currentTask
end

local function queuePacket(s, packet)
  local t = s.taskTable[packet.identity]
  s.queuePacketCount = s.queuePacketCount + 1
  packet.link = nil
  packet.identity = s.currentTaskIdentity
  return addInputAndCheckPriority(t, packet, s.currentTask)
end

local function release(s, identity)
  local t = s.taskTable[identity]
  t.taskHolding = false
  if t.priority > s.currentTask.priority then
    return t
  end
  return s.currentTask
end

local function idleFn(s, packet, data)
  data.count = data.count - 1
  if data.count == 0 then
    return holdSelf(s)
  end
  local control = data.control
  if control % 2 == 0 then
    data.control = math.floor(control / 2)
    return release(s, 4)
  end
  data.control = xorD008(math.floor(control / 2))
  return release(s, 5)
end

local function workerFn(s, packet, data)
  if packet == nil then
    return markWaiting(s)
  end
  if data.destination == 2 then
    data.destination = 3
  else
    data.destination = 2
  end
  packet.identity = data.destination
  packet.datum = 0
  local i = 0
  while i < 4 do
    data.count = data.count + 1
    if data.count > 26 then
      data.count = 1
    end
    packet.data[i] = 65 + data.count - 1
    i = i + 1
  end
  return queuePacket(s, packet)
end

local function handlerFn(s, packet, data)
  if packet ~= nil then
    if packet.kind == 1 then
      data.workIn = append(packet, data.workIn)
    else
      data.deviceIn = append(packet, data.deviceIn)
    end
  end
  local workPacket = data.workIn
  if workPacket == nil then
    return markWaiting(s)
  end
  local count = workPacket.datum
  if count >= 4 then
    data.workIn = workPacket.link
    return queuePacket(s, workPacket)
  end
  local devicePacket = data.deviceIn
  if devicePacket == nil then
    return markWaiting(s)
  end
  data.deviceIn = devicePacket.link
  devicePacket.datum = workPacket.data[count]
  workPacket.datum = count + 1
  return queuePacket(s, devicePacket)
end

local function deviceFn(s, packet, data)
  if packet == nil then
    packet = data.pending
    if packet == nil then
      return markWaiting(s)
    end
    data.pending = nil
    return queuePacket(s, packet)
  end
  data.pending = packet
  return holdSelf(s)
end

local function schedule(s)
  s.currentTask = s.taskList
  while true do
    local t = s.currentTask
    if t == nil then
      break
    end
    if isTaskHoldingOrWaiting(t) then
      s.currentTask = t.link
    else
      s.currentTaskIdentity = t.identity
      s.currentTask = runTask(s, t)
    end
  end
end

local function richards(count)
  local s = {}
  s.taskList = nil
  s.currentTask = nil
  s.currentTaskIdentity = 0
  s.queuePacketCount = 0
  s.holdCount = 0
  s.taskTable = {}

  local idle = {control = 1, count = count}
  createTask(s, 0, 0, nil, false, false, idleFn, idle)

  local queue = newPacket(nil, 1, 1)
  queue = newPacket(queue, 1, 1)
  local worker = {destination = 2, count = 0}
  createTask(s, 1, 1000, queue, true, true, workerFn, worker)

  queue = newPacket(nil, 4, 0)
  queue = newPacket(queue, 4, 0)
  queue = newPacket(queue, 4, 0)
  local handlerA = {workIn = nil, deviceIn = nil}
  createTask(s, 2, 2000, queue, true, true, handlerFn, handlerA)

  queue = newPacket(nil, 5, 0)
  queue = newPacket(queue, 5, 0)
  queue = newPacket(queue, 5, 0)
  local handlerB = {workIn = nil, deviceIn = nil}
  createTask(s, 3, 3000, queue, true, true, handlerFn, handlerB)

  local deviceA = {pending = nil}
  createTask(s, 4, 4000, nil, false, true, deviceFn, deviceA)
  local deviceB = {pending = nil}
  createTask(s, 5, 5000, nil, false, true, deviceFn, deviceB)

  schedule(s)
  return s.queuePacketCount * 1000000 + s.holdCount
end

local result = 0
for i = 0, ITERATIONS - 1 do
  local start = os.clock()
  result = richards(SIZE)
  print(string.format("iteration %d %d", i, math.floor((os.clock() - start) * 1e9)))
end
print(string.format("checksum %d", result))
