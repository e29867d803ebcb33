// richards: Martin Richards' OS simulation (port of richards.sl, which
// follows the Are-We-Fast-Yet version). Same structure as the SL program:
// tasks are objects with an `fn` property, no closures, arithmetic xorD008().
const SIZE = 1000; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

function newPacket(link, identity, kind) {
  const p = {};
  p.link = link;
  p.identity = identity;
  p.kind = kind;
  p.datum = 0;
  p.data = [0, 0, 0, 0];
  return p;
}

function append(packet, head) {
  packet.link = null;
  if (head === null) {
    return packet;
  }
  let mouse = head;
  while (true) {
    const link = mouse.link;
    if (link === null) {
      break;
    }
    mouse = link;
  }
  mouse.link = packet;
  return head;
}

function flipBit(v, bit) {
  const q = Math.floor(v / bit);
  if (q % 2 === 1) {
    return v - bit;
  }
  return v + bit;
}

function xorD008(v) {
  return flipBit(flipBit(flipBit(flipBit(v, 32768), 16384), 4096), 8);
}

function createTask(s, identity, priority, input, packetPending, taskWaiting, fn, data) {
  const t = {};
  t.link = s.taskList;
  t.identity = identity;
  t.priority = priority;
  t.input = input;
  t.packetPending = packetPending;
  t.taskWaiting = taskWaiting;
  t.taskHolding = false;
  t.fn = fn;
  t.data = data;
  s.taskList = t;
  s.taskTable[identity] = t;
}

function isTaskHoldingOrWaiting(t) {
  if (t.taskHolding) {
    return true;
  }
  if (t.packetPending) {
    return false;
  }
  return t.taskWaiting;
}

function isWaitingWithPacket(t) {
  if (t.taskHolding) {
    return false;
  }
  return t.packetPending && t.taskWaiting;
}

function addInputAndCheckPriority(t, packet, oldTask) {
  if (t.input === null) {
    t.input = packet;
    t.packetPending = true;
    if (t.priority > oldTask.priority) {
      return t;
    }
  } else {
    t.input = append(packet, t.input);
  }
  return oldTask;
}

function runTask(s, t) {
  let message = null;
  if (isWaitingWithPacket(t)) {
    message = t.input;
    t.input = message.link;
    if (t.input === null) {
      t.packetPending = false;
    } else {
      t.packetPending = true;
    }
    t.taskWaiting = false;
    t.taskHolding = false;
  }
  return t.fn(s, message, t.data);
}

function holdSelf(s) {
  s.holdCount = s.holdCount + 1;
  s.currentTask.taskHolding = true;
  return s.currentTask.link;
}

function markWaiting(s) {
  s.currentTask.taskWaiting = true;
  return s.currentTask;
}

function queuePacket(s, packet) {
  const t = s.taskTable[packet.identity];
  s.queuePacketCount = s.queuePacketCount + 1;
  packet.link = null;
  packet.identity = s.currentTaskIdentity;
  return addInputAndCheckPriority(t, packet, s.currentTask);
}

function release(s, identity) {
  const t = s.taskTable[identity];
  t.taskHolding = false;
  if (t.priority > s.currentTask.priority) {
    return t;
  }
  return s.currentTask;
}

function idleFn(s, packet, data) {
  data.count = data.count - 1;
  if (data.count === 0) {
    return holdSelf(s);
  }
  const control = data.control;
  if (control % 2 === 0) {
    data.control = Math.floor(control / 2);
    return release(s, 4);
  }
  data.control = xorD008(Math.floor(control / 2));
  return release(s, 5);
}

function workerFn(s, packet, data) {
  if (packet === null) {
    return markWaiting(s);
  }
  if (data.destination === 2) {
    data.destination = 3;
  } else {
    data.destination = 2;
  }
  packet.identity = data.destination;
  packet.datum = 0;
  let i = 0;
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
  if (packet !== null) {
    if (packet.kind === 1) {
      data.workIn = append(packet, data.workIn);
    } else {
      data.deviceIn = append(packet, data.deviceIn);
    }
  }
  const workPacket = data.workIn;
  if (workPacket === null) {
    return markWaiting(s);
  }
  const count = workPacket.datum;
  if (count >= 4) {
    data.workIn = workPacket.link;
    return queuePacket(s, workPacket);
  }
  const devicePacket = data.deviceIn;
  if (devicePacket === null) {
    return markWaiting(s);
  }
  data.deviceIn = devicePacket.link;
  devicePacket.datum = workPacket.data[count];
  workPacket.datum = count + 1;
  return queuePacket(s, devicePacket);
}

function deviceFn(s, packet, data) {
  if (packet === null) {
    packet = data.pending;
    if (packet === null) {
      return markWaiting(s);
    }
    data.pending = null;
    return queuePacket(s, packet);
  }
  data.pending = packet;
  return holdSelf(s);
}

function schedule(s) {
  s.currentTask = s.taskList;
  while (true) {
    const t = s.currentTask;
    if (t === null) {
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
  const s = {};
  s.taskList = null;
  s.currentTask = null;
  s.currentTaskIdentity = 0;
  s.queuePacketCount = 0;
  s.holdCount = 0;
  s.taskTable = [null, null, null, null, null, null];

  const idle = {control: 1, count: count};
  createTask(s, 0, 0, null, false, false, idleFn, idle);

  let queue = newPacket(null, 1, 1);
  queue = newPacket(queue, 1, 1);
  const worker = {destination: 2, count: 0};
  createTask(s, 1, 1000, queue, true, true, workerFn, worker);

  queue = newPacket(null, 4, 0);
  queue = newPacket(queue, 4, 0);
  queue = newPacket(queue, 4, 0);
  const handlerA = {workIn: null, deviceIn: null};
  createTask(s, 2, 2000, queue, true, true, handlerFn, handlerA);

  queue = newPacket(null, 5, 0);
  queue = newPacket(queue, 5, 0);
  queue = newPacket(queue, 5, 0);
  const handlerB = {workIn: null, deviceIn: null};
  createTask(s, 3, 3000, queue, true, true, handlerFn, handlerB);

  const deviceA = {pending: null};
  createTask(s, 4, 4000, null, false, true, deviceFn, deviceA);
  const deviceB = {pending: null};
  createTask(s, 5, 5000, null, false, true, deviceFn, deviceB);

  schedule(s);
  return s.queuePacketCount * 1000000 + s.holdCount;
}

let result = 0;
for (let i = 0; i < ITERATIONS; i++) {
  const start = process.hrtime.bigint();
  result = richards(SIZE);
  console.log(`iteration ${i} ${process.hrtime.bigint() - start}`);
}
console.log(`checksum ${result}`);
