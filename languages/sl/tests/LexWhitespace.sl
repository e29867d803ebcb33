function main()
{
	x	=	1+2;

  println(x);
	println("tab	here");
}
