x = 1; function main() {}
