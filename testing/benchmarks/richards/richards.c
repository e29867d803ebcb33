// richards: Martin Richards' OS simulation (port of richards.sl, which
// follows the Are-We-Fast-Yet version). Same structure as the SL program:
// tasks hold a function pointer and a data record, arithmetic xorD008().
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SIZE 1000  // BENCH:SIZE
#define ITERATIONS 1  // BENCH:ITERATIONS

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct Packet {
  struct Packet* link;
  long long identity, kind, datum;
  long long data[4];
} Packet;

struct Scheduler;
typedef struct Task {
  struct Task* link;
  long long identity, priority;
  Packet* input;
  bool packetPending, taskWaiting, taskHolding;
  struct Task* (*fn)(struct Scheduler* s, Packet* packet, void* data);
  void* data;
} Task;

typedef struct Scheduler {
  Task* taskList;
  Task* currentTask;
  long long currentTaskIdentity;
  long long queuePacketCount, holdCount;
  Task* taskTable[6];
} Scheduler;

typedef struct IdleData { long long control, count; } IdleData;
typedef struct WorkerData { long long destination, count; } WorkerData;
typedef struct HandlerData { Packet* workIn; Packet* deviceIn; } HandlerData;
typedef struct DeviceData { Packet* pending; } DeviceData;

// Everything allocated during one run, freed at its end.
static void* allocations[64];
static int allocationCount;

static void* allocate(size_t size) {
  void* p = calloc(1, size);
  allocations[allocationCount++] = p;
  return p;
}

static Packet* newPacket(Packet* link, long long identity, long long kind) {
  Packet* p = allocate(sizeof(Packet));
  p->link = link;
  p->identity = identity;
  p->kind = kind;
  p->datum = 0;
  return p;
}

static Packet* append(Packet* packet, Packet* head) {
  packet->link = NULL;
  if (head == NULL) return packet;
  Packet* mouse = head;
  while (true) {
    Packet* link = mouse->link;
    if (link == NULL) break;
    mouse = link;
  }
  mouse->link = packet;
  return head;
}

static long long flipBit(long long v, long long bit) {
  long long q = v / bit;
  if (q % 2 == 1) return v - bit;
  return v + bit;
}

static long long xorD008(long long v) {
  return flipBit(flipBit(flipBit(flipBit(v, 32768), 16384), 4096), 8);
}

static void createTask(Scheduler* s, long long identity, long long priority, Packet* input,
                       bool packetPending, bool taskWaiting,
                       Task* (*fn)(Scheduler*, Packet*, void*), void* data) {
  Task* t = allocate(sizeof(Task));
  t->link = s->taskList;
  t->identity = identity;
  t->priority = priority;
  t->input = input;
  t->packetPending = packetPending;
  t->taskWaiting = taskWaiting;
  t->taskHolding = false;
  t->fn = fn;
  t->data = data;
  s->taskList = t;
  s->taskTable[identity] = t;
}

static bool isTaskHoldingOrWaiting(Task* t) {
  if (t->taskHolding) return true;
  if (t->packetPending) return false;
  return t->taskWaiting;
}

static bool isWaitingWithPacket(Task* t) {
  if (t->taskHolding) return false;
  return t->packetPending && t->taskWaiting;
}

static Task* addInputAndCheckPriority(Task* t, Packet* packet, Task* oldTask) {
  if (t->input == NULL) {
    t->input = packet;
    t->packetPending = true;
    if (t->priority > oldTask->priority) return t;
  } else {
    t->input = append(packet, t->input);
  }
  return oldTask;
}

static Task* runTask(Scheduler* s, Task* t) {
  Packet* message = NULL;
  if (isWaitingWithPacket(t)) {
    message = t->input;
    t->input = message->link;
    t->packetPending = t->input != NULL;
    t->taskWaiting = false;
    t->taskHolding = false;
  }
  return t->fn(s, message, t->data);
}

static Task* holdSelf(Scheduler* s) {
  s->holdCount++;
  s->currentTask->taskHolding = true;
  return s->currentTask->link;
}

static Task* markWaiting(Scheduler* s) {
  s->currentTask->taskWaiting = true;
  return s->currentTask;
}

static Task* queuePacket(Scheduler* s, Packet* packet) {
  Task* t = s->taskTable[packet->identity];
  s->queuePacketCount++;
  packet->link = NULL;
  packet->identity = s->currentTaskIdentity;
  return addInputAndCheckPriority(t, packet, s->currentTask);
}

static Task* release(Scheduler* s, long long identity) {
  Task* t = s->taskTable[identity];
  t->taskHolding = false;
  if (t->priority > s->currentTask->priority) return t;
  return s->currentTask;
}

static Task* idleFn(Scheduler* s, Packet* packet, void* d) {
  IdleData* data = d;
  (void)packet;
  data->count--;
  if (data->count == 0) return holdSelf(s);
  long long control = data->control;
  if (control % 2 == 0) {
    data->control = control / 2;
    return release(s, 4);
  }
  data->control = xorD008(control / 2);
  return release(s, 5);
}

static Task* workerFn(Scheduler* s, Packet* packet, void* d) {
  WorkerData* data = d;
  if (packet == NULL) return markWaiting(s);
  data->destination = data->destination == 2 ? 3 : 2;
  packet->identity = data->destination;
  packet->datum = 0;
  for (int i = 0; i < 4; i++) {
    data->count++;
    if (data->count > 26) data->count = 1;
    packet->data[i] = 65 + data->count - 1;
  }
  return queuePacket(s, packet);
}

static Task* handlerFn(Scheduler* s, Packet* packet, void* d) {
  HandlerData* data = d;
  if (packet != NULL) {
    if (packet->kind == 1) {
      data->workIn = append(packet, data->workIn);
    } else {
      data->deviceIn = append(packet, data->deviceIn);
    }
  }
  Packet* workPacket = data->workIn;
  if (workPacket == NULL) return markWaiting(s);
  long long count = workPacket->datum;
  if (count >= 4) {
    data->workIn = workPacket->link;
    return queuePacket(s, workPacket);
  }
  Packet* devicePacket = data->deviceIn;
  if (devicePacket == NULL) return markWaiting(s);
  data->deviceIn = devicePacket->link;
  devicePacket->datum = workPacket->data[count];
  workPacket->datum = count + 1;
  return queuePacket(s, devicePacket);
}

static Task* deviceFn(Scheduler* s, Packet* packet, void* d) {
  DeviceData* data = d;
  if (packet == NULL) {
    packet = data->pending;
    if (packet == NULL) return markWaiting(s);
    data->pending = NULL;
    return queuePacket(s, packet);
  }
  data->pending = packet;
  return holdSelf(s);
}

static void schedule(Scheduler* s) {
  s->currentTask = s->taskList;
  while (true) {
    Task* t = s->currentTask;
    if (t == NULL) break;
    if (isTaskHoldingOrWaiting(t)) {
      s->currentTask = t->link;
    } else {
      s->currentTaskIdentity = t->identity;
      s->currentTask = runTask(s, t);
    }
  }
}

static long long richards(long long count) {
  allocationCount = 0;
  Scheduler* s = allocate(sizeof(Scheduler));

  IdleData* idle = allocate(sizeof(IdleData));
  idle->control = 1;
  idle->count = count;
  createTask(s, 0, 0, NULL, false, false, idleFn, idle);

  Packet* queue = newPacket(NULL, 1, 1);
  queue = newPacket(queue, 1, 1);
  WorkerData* worker = allocate(sizeof(WorkerData));
  worker->destination = 2;
  createTask(s, 1, 1000, queue, true, true, workerFn, worker);

  queue = newPacket(NULL, 4, 0);
  queue = newPacket(queue, 4, 0);
  queue = newPacket(queue, 4, 0);
  createTask(s, 2, 2000, queue, true, true, handlerFn, allocate(sizeof(HandlerData)));

  queue = newPacket(NULL, 5, 0);
  queue = newPacket(queue, 5, 0);
  queue = newPacket(queue, 5, 0);
  createTask(s, 3, 3000, queue, true, true, handlerFn, allocate(sizeof(HandlerData)));

  createTask(s, 4, 4000, NULL, false, true, deviceFn, allocate(sizeof(DeviceData)));
  createTask(s, 5, 5000, NULL, false, true, deviceFn, allocate(sizeof(DeviceData)));

  schedule(s);
  long long result = s->queuePacketCount * 1000000 + s->holdCount;
  for (int i = 0; i < allocationCount; i++) free(allocations[i]);
  return result;
}

static volatile long long size_input = SIZE;  // opaque to the optimizer

int main(void) {
  long long size = size_input;
  long long result = 0;
  for (int i = 0; i < ITERATIONS; i++) {
    long long start = now_ns();
    result = richards(size);
    printf("iteration %d %lld\n", i, now_ns() - start);
  }
  printf("checksum %lld\n", result);
  return 0;
}
