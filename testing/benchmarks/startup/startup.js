// startup: the smallest program that proves it ran (tools/bench/run.py --startup).
console.log("checksum 0");
