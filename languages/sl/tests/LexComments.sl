/* a block comment before the first function */
// a line comment
function main() { // a comment after a brace
  x = 1 /* inside an expression */ + 2;
  /* a block comment
     spanning lines, with // and * and ** inside */
  println(x); // prints 3
  println("// not a comment");
  println("/* not a comment either */");
  y = 10 /*/ the comment ends at the next star-slash /*/ + 5;
  println(y);
  z = 2 /**/ * 3;
  println(z);
}
// a last comment without a newline