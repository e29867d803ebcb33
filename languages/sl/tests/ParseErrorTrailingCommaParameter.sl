function main(a,) {
}
