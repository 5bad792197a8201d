# Turns a text file into a C source defining `const char NAME[]` with its
# contents, so that the library carries its built-in board files and the program its
# web page. Each byte is written as '\xNN', a char whatever its value.
# Usage: cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
file(WRITE "${OUT}"
  "/* generated from ${IN} by cmake/embed.cmake: do not edit */\n"
  "extern const char ${NAME}[];\n"
  "const char ${NAME}[] = {${bytes} 0x00};\n")
