function main() {
  println(inNativeImage());
  return typeOf(inNativeImage());
}
