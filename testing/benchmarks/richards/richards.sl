// richards: Martin Richards' operating-system simulation benchmark, after
// the Are-We-Fast-Yet version (Wolczko's Smalltalk port): six tasks (idler,
// worker, two handlers, two devices) exchange packets through linked queues.
// SL has no classes, closures or bit operators, so tasks are objects whose
// `fn` property holds the task's function, called as t.fn(scheduler, packet,
// data); the idler's `^ 0xD008` is the arithmetic xorD008() below, used by all
// ports alike. size = the idler's count (10000 is the classic run: 23246
// packets queued, 9297 holds). Checksum: queuePacketCount * 1000000 + holdCount.
function benchSize() { return 1000; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

// Task identities and packet kinds.
//   IDLER 0, WORKER 1, HANDLER_A 2, HANDLER_B 3, DEVICE_A 4, DEVICE_B 5
//   DEVICE_PACKET_KIND 0, WORK_PACKET_KIND 1; a packet carries 4 data words.

function null() {}

function newPacket(link, identity, kind) {
  p = new();
  p.link = link;
  p.identity = identity;
  p.kind = kind;
  p.datum = 0;
  data = new();
  data[0] = 0;
  data[1] = 0;
  data[2] = 0;
  data[3] = 0;
  p.data = data;
  return p;
}

// Appends packet to the queue starting at head; returns the new head.
function append(packet, head) {
  packet.link = null();
  if (isNull(head)) {
    return packet;
  }
  mouse = head;
  while (1 == 1) {
    link = mouse.link;
    if (isNull(link)) {
      break;
    }
    mouse = link;
  }
  mouse.link = packet;
  return head;
}

// v ^ 0xD008 for 0 <= v < 32768: flips bits 15, 14, 12 and 3.
function flipBit(v, bit) {
  q = v / bit;
  if (q - (q / 2) * 2 == 1) {
    return v - bit;
  }
  return v + bit;
}

function xorD008(v) {
  return flipBit(flipBit(flipBit(flipBit(v, 32768), 16384), 4096), 8);
}

function createTask(s, identity, priority, input, packetPending, taskWaiting, fn, data) {
  t = new();
  t.link = s.taskList;
  t.identity = identity;
  t.priority = priority;
  t.input = input;
  t.packetPending = packetPending;
  t.taskWaiting = taskWaiting;
  t.taskHolding = 1 == 2;
  t.fn = fn;
  t.data = data;
  s.taskList = t;
  s.taskTable[identity] = t;
}

function isTaskHoldingOrWaiting(t) {
  if (t.taskHolding) {
    return 1 == 1;
  }
  if (t.packetPending) {
    return 1 == 2;
  }
  return t.taskWaiting;
}

function isWaitingWithPacket(t) {
  if (t.taskHolding) {
    return 1 == 2;
  }
  return t.packetPending && t.taskWaiting;
}

function addInputAndCheckPriority(t, packet, oldTask) {
  if (isNull(t.input)) {
    t.input = packet;
    t.packetPending = 1 == 1;
    if (t.priority > oldTask.priority) {
      return t;
    }
  } else {
    t.input = append(packet, t.input);
  }
  return oldTask;
}

function runTask(s, t) {
  message = null();
  if (isWaitingWithPacket(t)) {
    message = t.input;
    t.input = message.link;
    if (isNull(t.input)) {
      t.packetPending = 1 == 2;
    } else {
      t.packetPending = 1 == 1;
    }
    t.taskWaiting = 1 == 2;
    t.taskHolding = 1 == 2;
  }
  return t.fn(s, message, t.data);
}

function holdSelf(s) {
  s.holdCount = s.holdCount + 1;
  s.currentTask.taskHolding = 1 == 1;
  return s.currentTask.link;
}

function markWaiting(s) {
  s.currentTask.taskWaiting = 1 == 1;
  return s.currentTask;
}

function queuePacket(s, packet) {
  t = s.taskTable[packet.identity];
  s.queuePacketCount = s.queuePacketCount + 1;
  packet.link = null();
  packet.identity = s.currentTaskIdentity;
  return addInputAndCheckPriority(t, packet, s.currentTask);
}

function release(s, identity) {
  t = s.taskTable[identity];
  t.taskHolding = 1 == 2;
  if (t.priority > s.currentTask.priority) {
    return t;
  }
  return s.currentTask;
}

function idleFn(s, packet, data) {
  data.count = data.count - 1;
  if (data.count == 0) {
    return holdSelf(s);
  }
  control = data.control;
  if (control - (control / 2) * 2 == 0) {
    data.control = control / 2;
    return release(s, 4);
  }
  data.control = xorD008(control / 2);
  return release(s, 5);
}

function workerFn(s, packet, data) {
  if (isNull(packet)) {
    return markWaiting(s);
  }
  if (data.destination == 2) {
    data.destination = 3;
  } else {
    data.destination = 2;
  }
  packet.identity = data.destination;
  packet.datum = 0;
  i = 0;
  while (i < 4) {
    data.count = data.count + 1;
    if (data.count > 26) {
      data.count = 1;
    }
    packet.data[i] = 65 + data.count - 1;
    i = i + 1;
  }
  return queuePacket(s, packet);
}

function handlerFn(s, packet, data) {
  if (isNull(packet)) {
  } else {
    if (packet.kind == 1) {
      data.workIn = append(packet, data.workIn);
    } else {
      data.deviceIn = append(packet, data.deviceIn);
    }
  }
  workPacket = data.workIn;
  if (isNull(workPacket)) {
    return markWaiting(s);
  }
  count = workPacket.datum;
  if (count >= 4) {
    data.workIn = workPacket.link;
    return queuePacket(s, workPacket);
  }
  devicePacket = data.deviceIn;
  if (isNull(devicePacket)) {
    return markWaiting(s);
  }
  data.deviceIn = devicePacket.link;
  devicePacket.datum = workPacket.data[count];
  workPacket.datum = count + 1;
  return queuePacket(s, devicePacket);
}

function deviceFn(s, packet, data) {
  if (isNull(packet)) {
    packet = data.pending;
    if (isNull(packet)) {
      return markWaiting(s);
    }
    data.pending = null();
    return queuePacket(s, packet);
  }
  data.pending = packet;
  return holdSelf(s);
}

function schedule(s) {
  s.currentTask = s.taskList;
  while (1 == 1) {
    t = s.currentTask;
    if (isNull(t)) {
      break;
    }
    if (isTaskHoldingOrWaiting(t)) {
      s.currentTask = t.link;
    } else {
      s.currentTaskIdentity = t.identity;
      s.currentTask = runTask(s, t);
    }
  }
}

function richards(count) {
  yes = 1 == 1;
  no = 1 == 2;
  s = new();
  s.taskList = null();
  s.currentTask = null();
  s.currentTaskIdentity = 0;
  s.queuePacketCount = 0;
  s.holdCount = 0;
  table = new();
  i = 0;
  while (i < 6) {
    table[i] = null();
    i = i + 1;
  }
  s.taskTable = table;

  idle = new();
  idle.control = 1;
  idle.count = count;
  createTask(s, 0, 0, null(), no, no, idleFn, idle);

  queue = newPacket(null(), 1, 1);
  queue = newPacket(queue, 1, 1);
  worker = new();
  worker.destination = 2;
  worker.count = 0;
  createTask(s, 1, 1000, queue, yes, yes, workerFn, worker);

  queue = newPacket(null(), 4, 0);
  queue = newPacket(queue, 4, 0);
  queue = newPacket(queue, 4, 0);
  handlerA = new();
  handlerA.workIn = null();
  handlerA.deviceIn = null();
  createTask(s, 2, 2000, queue, yes, yes, handlerFn, handlerA);

  queue = newPacket(null(), 5, 0);
  queue = newPacket(queue, 5, 0);
  queue = newPacket(queue, 5, 0);
  handlerB = new();
  handlerB.workIn = null();
  handlerB.deviceIn = null();
  createTask(s, 3, 3000, queue, yes, yes, handlerFn, handlerB);

  deviceA = new();
  deviceA.pending = null();
  createTask(s, 4, 4000, null(), no, yes, deviceFn, deviceA);
  deviceB = new();
  deviceB.pending = null();
  createTask(s, 5, 5000, null(), no, yes, deviceFn, deviceB);

  schedule(s);
  return s.queuePacketCount * 1000000 + s.holdCount;
}

function main() {
  size = benchSize();
  iterations = benchIterations();
  result = 0;
  i = 0;
  while (i < iterations) {
    start = nanoTime();
    result = richards(size);
    println("iteration " + i + " " + (nanoTime() - start));
    i = i + 1;
  }
  println("checksum " + result);
}
