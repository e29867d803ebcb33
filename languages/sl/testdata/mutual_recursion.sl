// 60 pairs of mutually recursive functions compiled by two compiler threads
// at once (compiler_threads_test): each compilation locks its own tree and
// inlines the other's, so two threads must never wait for each other.
function a0(n) { if (n < 1) { return 0; } x = n + 0; y = x * 2; z = y - x; return b0(n - 1) + z - x + 1; }
function b0(n) { if (n < 1) { return 0; } x = n + 0; y = x * 3; z = y - x; return a0(n - 1) + z - x * 2 + 1; }
function a1(n) { if (n < 1) { return 0; } x = n + 1; y = x * 2; z = y - x; return b1(n - 1) + z - x + 1; }
function b1(n) { if (n < 1) { return 0; } x = n + 1; y = x * 3; z = y - x; return a1(n - 1) + z - x * 2 + 1; }
function a2(n) { if (n < 1) { return 0; } x = n + 2; y = x * 2; z = y - x; return b2(n - 1) + z - x + 1; }
function b2(n) { if (n < 1) { return 0; } x = n + 2; y = x * 3; z = y - x; return a2(n - 1) + z - x * 2 + 1; }
function a3(n) { if (n < 1) { return 0; } x = n + 3; y = x * 2; z = y - x; return b3(n - 1) + z - x + 1; }
function b3(n) { if (n < 1) { return 0; } x = n + 3; y = x * 3; z = y - x; return a3(n - 1) + z - x * 2 + 1; }
function a4(n) { if (n < 1) { return 0; } x = n + 4; y = x * 2; z = y - x; return b4(n - 1) + z - x + 1; }
function b4(n) { if (n < 1) { return 0; } x = n + 4; y = x * 3; z = y - x; return a4(n - 1) + z - x * 2 + 1; }
function a5(n) { if (n < 1) { return 0; } x = n + 5; y = x * 2; z = y - x; return b5(n - 1) + z - x + 1; }
function b5(n) { if (n < 1) { return 0; } x = n + 5; y = x * 3; z = y - x; return a5(n - 1) + z - x * 2 + 1; }
function a6(n) { if (n < 1) { return 0; } x = n + 6; y = x * 2; z = y - x; return b6(n - 1) + z - x + 1; }
function b6(n) { if (n < 1) { return 0; } x = n + 6; y = x * 3; z = y - x; return a6(n - 1) + z - x * 2 + 1; }
function a7(n) { if (n < 1) { return 0; } x = n + 7; y = x * 2; z = y - x; return b7(n - 1) + z - x + 1; }
function b7(n) { if (n < 1) { return 0; } x = n + 7; y = x * 3; z = y - x; return a7(n - 1) + z - x * 2 + 1; }
function a8(n) { if (n < 1) { return 0; } x = n + 8; y = x * 2; z = y - x; return b8(n - 1) + z - x + 1; }
function b8(n) { if (n < 1) { return 0; } x = n + 8; y = x * 3; z = y - x; return a8(n - 1) + z - x * 2 + 1; }
function a9(n) { if (n < 1) { return 0; } x = n + 9; y = x * 2; z = y - x; return b9(n - 1) + z - x + 1; }
function b9(n) { if (n < 1) { return 0; } x = n + 9; y = x * 3; z = y - x; return a9(n - 1) + z - x * 2 + 1; }
function a10(n) { if (n < 1) { return 0; } x = n + 10; y = x * 2; z = y - x; return b10(n - 1) + z - x + 1; }
function b10(n) { if (n < 1) { return 0; } x = n + 10; y = x * 3; z = y - x; return a10(n - 1) + z - x * 2 + 1; }
function a11(n) { if (n < 1) { return 0; } x = n + 11; y = x * 2; z = y - x; return b11(n - 1) + z - x + 1; }
function b11(n) { if (n < 1) { return 0; } x = n + 11; y = x * 3; z = y - x; return a11(n - 1) + z - x * 2 + 1; }
function a12(n) { if (n < 1) { return 0; } x = n + 12; y = x * 2; z = y - x; return b12(n - 1) + z - x + 1; }
function b12(n) { if (n < 1) { return 0; } x = n + 12; y = x * 3; z = y - x; return a12(n - 1) + z - x * 2 + 1; }
function a13(n) { if (n < 1) { return 0; } x = n + 13; y = x * 2; z = y - x; return b13(n - 1) + z - x + 1; }
function b13(n) { if (n < 1) { return 0; } x = n + 13; y = x * 3; z = y - x; return a13(n - 1) + z - x * 2 + 1; }
function a14(n) { if (n < 1) { return 0; } x = n + 14; y = x * 2; z = y - x; return b14(n - 1) + z - x + 1; }
function b14(n) { if (n < 1) { return 0; } x = n + 14; y = x * 3; z = y - x; return a14(n - 1) + z - x * 2 + 1; }
function a15(n) { if (n < 1) { return 0; } x = n + 15; y = x * 2; z = y - x; return b15(n - 1) + z - x + 1; }
function b15(n) { if (n < 1) { return 0; } x = n + 15; y = x * 3; z = y - x; return a15(n - 1) + z - x * 2 + 1; }
function a16(n) { if (n < 1) { return 0; } x = n + 16; y = x * 2; z = y - x; return b16(n - 1) + z - x + 1; }
function b16(n) { if (n < 1) { return 0; } x = n + 16; y = x * 3; z = y - x; return a16(n - 1) + z - x * 2 + 1; }
function a17(n) { if (n < 1) { return 0; } x = n + 17; y = x * 2; z = y - x; return b17(n - 1) + z - x + 1; }
function b17(n) { if (n < 1) { return 0; } x = n + 17; y = x * 3; z = y - x; return a17(n - 1) + z - x * 2 + 1; }
function a18(n) { if (n < 1) { return 0; } x = n + 18; y = x * 2; z = y - x; return b18(n - 1) + z - x + 1; }
function b18(n) { if (n < 1) { return 0; } x = n + 18; y = x * 3; z = y - x; return a18(n - 1) + z - x * 2 + 1; }
function a19(n) { if (n < 1) { return 0; } x = n + 19; y = x * 2; z = y - x; return b19(n - 1) + z - x + 1; }
function b19(n) { if (n < 1) { return 0; } x = n + 19; y = x * 3; z = y - x; return a19(n - 1) + z - x * 2 + 1; }
function a20(n) { if (n < 1) { return 0; } x = n + 20; y = x * 2; z = y - x; return b20(n - 1) + z - x + 1; }
function b20(n) { if (n < 1) { return 0; } x = n + 20; y = x * 3; z = y - x; return a20(n - 1) + z - x * 2 + 1; }
function a21(n) { if (n < 1) { return 0; } x = n + 21; y = x * 2; z = y - x; return b21(n - 1) + z - x + 1; }
function b21(n) { if (n < 1) { return 0; } x = n + 21; y = x * 3; z = y - x; return a21(n - 1) + z - x * 2 + 1; }
function a22(n) { if (n < 1) { return 0; } x = n + 22; y = x * 2; z = y - x; return b22(n - 1) + z - x + 1; }
function b22(n) { if (n < 1) { return 0; } x = n + 22; y = x * 3; z = y - x; return a22(n - 1) + z - x * 2 + 1; }
function a23(n) { if (n < 1) { return 0; } x = n + 23; y = x * 2; z = y - x; return b23(n - 1) + z - x + 1; }
function b23(n) { if (n < 1) { return 0; } x = n + 23; y = x * 3; z = y - x; return a23(n - 1) + z - x * 2 + 1; }
function a24(n) { if (n < 1) { return 0; } x = n + 24; y = x * 2; z = y - x; return b24(n - 1) + z - x + 1; }
function b24(n) { if (n < 1) { return 0; } x = n + 24; y = x * 3; z = y - x; return a24(n - 1) + z - x * 2 + 1; }
function a25(n) { if (n < 1) { return 0; } x = n + 25; y = x * 2; z = y - x; return b25(n - 1) + z - x + 1; }
function b25(n) { if (n < 1) { return 0; } x = n + 25; y = x * 3; z = y - x; return a25(n - 1) + z - x * 2 + 1; }
function a26(n) { if (n < 1) { return 0; } x = n + 26; y = x * 2; z = y - x; return b26(n - 1) + z - x + 1; }
function b26(n) { if (n < 1) { return 0; } x = n + 26; y = x * 3; z = y - x; return a26(n - 1) + z - x * 2 + 1; }
function a27(n) { if (n < 1) { return 0; } x = n + 27; y = x * 2; z = y - x; return b27(n - 1) + z - x + 1; }
function b27(n) { if (n < 1) { return 0; } x = n + 27; y = x * 3; z = y - x; return a27(n - 1) + z - x * 2 + 1; }
function a28(n) { if (n < 1) { return 0; } x = n + 28; y = x * 2; z = y - x; return b28(n - 1) + z - x + 1; }
function b28(n) { if (n < 1) { return 0; } x = n + 28; y = x * 3; z = y - x; return a28(n - 1) + z - x * 2 + 1; }
function a29(n) { if (n < 1) { return 0; } x = n + 29; y = x * 2; z = y - x; return b29(n - 1) + z - x + 1; }
function b29(n) { if (n < 1) { return 0; } x = n + 29; y = x * 3; z = y - x; return a29(n - 1) + z - x * 2 + 1; }
function a30(n) { if (n < 1) { return 0; } x = n + 30; y = x * 2; z = y - x; return b30(n - 1) + z - x + 1; }
function b30(n) { if (n < 1) { return 0; } x = n + 30; y = x * 3; z = y - x; return a30(n - 1) + z - x * 2 + 1; }
function a31(n) { if (n < 1) { return 0; } x = n + 31; y = x * 2; z = y - x; return b31(n - 1) + z - x + 1; }
function b31(n) { if (n < 1) { return 0; } x = n + 31; y = x * 3; z = y - x; return a31(n - 1) + z - x * 2 + 1; }
function a32(n) { if (n < 1) { return 0; } x = n + 32; y = x * 2; z = y - x; return b32(n - 1) + z - x + 1; }
function b32(n) { if (n < 1) { return 0; } x = n + 32; y = x * 3; z = y - x; return a32(n - 1) + z - x * 2 + 1; }
function a33(n) { if (n < 1) { return 0; } x = n + 33; y = x * 2; z = y - x; return b33(n - 1) + z - x + 1; }
function b33(n) { if (n < 1) { return 0; } x = n + 33; y = x * 3; z = y - x; return a33(n - 1) + z - x * 2 + 1; }
function a34(n) { if (n < 1) { return 0; } x = n + 34; y = x * 2; z = y - x; return b34(n - 1) + z - x + 1; }
function b34(n) { if (n < 1) { return 0; } x = n + 34; y = x * 3; z = y - x; return a34(n - 1) + z - x * 2 + 1; }
function a35(n) { if (n < 1) { return 0; } x = n + 35; y = x * 2; z = y - x; return b35(n - 1) + z - x + 1; }
function b35(n) { if (n < 1) { return 0; } x = n + 35; y = x * 3; z = y - x; return a35(n - 1) + z - x * 2 + 1; }
function a36(n) { if (n < 1) { return 0; } x = n + 36; y = x * 2; z = y - x; return b36(n - 1) + z - x + 1; }
function b36(n) { if (n < 1) { return 0; } x = n + 36; y = x * 3; z = y - x; return a36(n - 1) + z - x * 2 + 1; }
function a37(n) { if (n < 1) { return 0; } x = n + 37; y = x * 2; z = y - x; return b37(n - 1) + z - x + 1; }
function b37(n) { if (n < 1) { return 0; } x = n + 37; y = x * 3; z = y - x; return a37(n - 1) + z - x * 2 + 1; }
function a38(n) { if (n < 1) { return 0; } x = n + 38; y = x * 2; z = y - x; return b38(n - 1) + z - x + 1; }
function b38(n) { if (n < 1) { return 0; } x = n + 38; y = x * 3; z = y - x; return a38(n - 1) + z - x * 2 + 1; }
function a39(n) { if (n < 1) { return 0; } x = n + 39; y = x * 2; z = y - x; return b39(n - 1) + z - x + 1; }
function b39(n) { if (n < 1) { return 0; } x = n + 39; y = x * 3; z = y - x; return a39(n - 1) + z - x * 2 + 1; }
function a40(n) { if (n < 1) { return 0; } x = n + 40; y = x * 2; z = y - x; return b40(n - 1) + z - x + 1; }
function b40(n) { if (n < 1) { return 0; } x = n + 40; y = x * 3; z = y - x; return a40(n - 1) + z - x * 2 + 1; }
function a41(n) { if (n < 1) { return 0; } x = n + 41; y = x * 2; z = y - x; return b41(n - 1) + z - x + 1; }
function b41(n) { if (n < 1) { return 0; } x = n + 41; y = x * 3; z = y - x; return a41(n - 1) + z - x * 2 + 1; }
function a42(n) { if (n < 1) { return 0; } x = n + 42; y = x * 2; z = y - x; return b42(n - 1) + z - x + 1; }
function b42(n) { if (n < 1) { return 0; } x = n + 42; y = x * 3; z = y - x; return a42(n - 1) + z - x * 2 + 1; }
function a43(n) { if (n < 1) { return 0; } x = n + 43; y = x * 2; z = y - x; return b43(n - 1) + z - x + 1; }
function b43(n) { if (n < 1) { return 0; } x = n + 43; y = x * 3; z = y - x; return a43(n - 1) + z - x * 2 + 1; }
function a44(n) { if (n < 1) { return 0; } x = n + 44; y = x * 2; z = y - x; return b44(n - 1) + z - x + 1; }
function b44(n) { if (n < 1) { return 0; } x = n + 44; y = x * 3; z = y - x; return a44(n - 1) + z - x * 2 + 1; }
function a45(n) { if (n < 1) { return 0; } x = n + 45; y = x * 2; z = y - x; return b45(n - 1) + z - x + 1; }
function b45(n) { if (n < 1) { return 0; } x = n + 45; y = x * 3; z = y - x; return a45(n - 1) + z - x * 2 + 1; }
function a46(n) { if (n < 1) { return 0; } x = n + 46; y = x * 2; z = y - x; return b46(n - 1) + z - x + 1; }
function b46(n) { if (n < 1) { return 0; } x = n + 46; y = x * 3; z = y - x; return a46(n - 1) + z - x * 2 + 1; }
function a47(n) { if (n < 1) { return 0; } x = n + 47; y = x * 2; z = y - x; return b47(n - 1) + z - x + 1; }
function b47(n) { if (n < 1) { return 0; } x = n + 47; y = x * 3; z = y - x; return a47(n - 1) + z - x * 2 + 1; }
function a48(n) { if (n < 1) { return 0; } x = n + 48; y = x * 2; z = y - x; return b48(n - 1) + z - x + 1; }
function b48(n) { if (n < 1) { return 0; } x = n + 48; y = x * 3; z = y - x; return a48(n - 1) + z - x * 2 + 1; }
function a49(n) { if (n < 1) { return 0; } x = n + 49; y = x * 2; z = y - x; return b49(n - 1) + z - x + 1; }
function b49(n) { if (n < 1) { return 0; } x = n + 49; y = x * 3; z = y - x; return a49(n - 1) + z - x * 2 + 1; }
function a50(n) { if (n < 1) { return 0; } x = n + 50; y = x * 2; z = y - x; return b50(n - 1) + z - x + 1; }
function b50(n) { if (n < 1) { return 0; } x = n + 50; y = x * 3; z = y - x; return a50(n - 1) + z - x * 2 + 1; }
function a51(n) { if (n < 1) { return 0; } x = n + 51; y = x * 2; z = y - x; return b51(n - 1) + z - x + 1; }
function b51(n) { if (n < 1) { return 0; } x = n + 51; y = x * 3; z = y - x; return a51(n - 1) + z - x * 2 + 1; }
function a52(n) { if (n < 1) { return 0; } x = n + 52; y = x * 2; z = y - x; return b52(n - 1) + z - x + 1; }
function b52(n) { if (n < 1) { return 0; } x = n + 52; y = x * 3; z = y - x; return a52(n - 1) + z - x * 2 + 1; }
function a53(n) { if (n < 1) { return 0; } x = n + 53; y = x * 2; z = y - x; return b53(n - 1) + z - x + 1; }
function b53(n) { if (n < 1) { return 0; } x = n + 53; y = x * 3; z = y - x; return a53(n - 1) + z - x * 2 + 1; }
function a54(n) { if (n < 1) { return 0; } x = n + 54; y = x * 2; z = y - x; return b54(n - 1) + z - x + 1; }
function b54(n) { if (n < 1) { return 0; } x = n + 54; y = x * 3; z = y - x; return a54(n - 1) + z - x * 2 + 1; }
function a55(n) { if (n < 1) { return 0; } x = n + 55; y = x * 2; z = y - x; return b55(n - 1) + z - x + 1; }
function b55(n) { if (n < 1) { return 0; } x = n + 55; y = x * 3; z = y - x; return a55(n - 1) + z - x * 2 + 1; }
function a56(n) { if (n < 1) { return 0; } x = n + 56; y = x * 2; z = y - x; return b56(n - 1) + z - x + 1; }
function b56(n) { if (n < 1) { return 0; } x = n + 56; y = x * 3; z = y - x; return a56(n - 1) + z - x * 2 + 1; }
function a57(n) { if (n < 1) { return 0; } x = n + 57; y = x * 2; z = y - x; return b57(n - 1) + z - x + 1; }
function b57(n) { if (n < 1) { return 0; } x = n + 57; y = x * 3; z = y - x; return a57(n - 1) + z - x * 2 + 1; }
function a58(n) { if (n < 1) { return 0; } x = n + 58; y = x * 2; z = y - x; return b58(n - 1) + z - x + 1; }
function b58(n) { if (n < 1) { return 0; } x = n + 58; y = x * 3; z = y - x; return a58(n - 1) + z - x * 2 + 1; }
function a59(n) { if (n < 1) { return 0; } x = n + 59; y = x * 2; z = y - x; return b59(n - 1) + z - x + 1; }
function b59(n) { if (n < 1) { return 0; } x = n + 59; y = x * 3; z = y - x; return a59(n - 1) + z - x * 2 + 1; }
function main() {
  j = 0; s = 0;
  while (j < 6000) {
    s = s + a0(2) + b0(2);
    s = s + a1(2) + b1(2);
    s = s + a2(2) + b2(2);
    s = s + a3(2) + b3(2);
    s = s + a4(2) + b4(2);
    s = s + a5(2) + b5(2);
    s = s + a6(2) + b6(2);
    s = s + a7(2) + b7(2);
    s = s + a8(2) + b8(2);
    s = s + a9(2) + b9(2);
    s = s + a10(2) + b10(2);
    s = s + a11(2) + b11(2);
    s = s + a12(2) + b12(2);
    s = s + a13(2) + b13(2);
    s = s + a14(2) + b14(2);
    s = s + a15(2) + b15(2);
    s = s + a16(2) + b16(2);
    s = s + a17(2) + b17(2);
    s = s + a18(2) + b18(2);
    s = s + a19(2) + b19(2);
    s = s + a20(2) + b20(2);
    s = s + a21(2) + b21(2);
    s = s + a22(2) + b22(2);
    s = s + a23(2) + b23(2);
    s = s + a24(2) + b24(2);
    s = s + a25(2) + b25(2);
    s = s + a26(2) + b26(2);
    s = s + a27(2) + b27(2);
    s = s + a28(2) + b28(2);
    s = s + a29(2) + b29(2);
    s = s + a30(2) + b30(2);
    s = s + a31(2) + b31(2);
    s = s + a32(2) + b32(2);
    s = s + a33(2) + b33(2);
    s = s + a34(2) + b34(2);
    s = s + a35(2) + b35(2);
    s = s + a36(2) + b36(2);
    s = s + a37(2) + b37(2);
    s = s + a38(2) + b38(2);
    s = s + a39(2) + b39(2);
    s = s + a40(2) + b40(2);
    s = s + a41(2) + b41(2);
    s = s + a42(2) + b42(2);
    s = s + a43(2) + b43(2);
    s = s + a44(2) + b44(2);
    s = s + a45(2) + b45(2);
    s = s + a46(2) + b46(2);
    s = s + a47(2) + b47(2);
    s = s + a48(2) + b48(2);
    s = s + a49(2) + b49(2);
    s = s + a50(2) + b50(2);
    s = s + a51(2) + b51(2);
    s = s + a52(2) + b52(2);
    s = s + a53(2) + b53(2);
    s = s + a54(2) + b54(2);
    s = s + a55(2) + b55(2);
    s = s + a56(2) + b56(2);
    s = s + a57(2) + b57(2);
    s = s + a58(2) + b58(2);
    s = s + a59(2) + b59(2);
    j = j + 1;
  }
  println(s);
}
