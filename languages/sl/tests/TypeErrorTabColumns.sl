function main() {
	x = 1 == 1;
		println(x - 1);
}
