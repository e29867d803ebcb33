function main
