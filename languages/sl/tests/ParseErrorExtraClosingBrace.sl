function main() { } }
