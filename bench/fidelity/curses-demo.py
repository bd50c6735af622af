#!/usr/bin/env python3
# A small curses program for the fidelity benchmark: a bordered window with a title, a coloured line, a
# reversed line and a wide character, drawn with curses' own screen optimisation; it ends on any key.
import curses


def main(screen):
    curses.curs_set(0)
    curses.start_color()
    curses.init_pair(1, curses.COLOR_YELLOW, curses.COLOR_BLUE)
    window = curses.newwin(8, 40, 2, 4)
    window.box()
    window.addstr(0, 2, " curses demo ")
    window.addstr(2, 2, "coloured line", curses.color_pair(1) | curses.A_BOLD)
    window.addstr(3, 2, "reversed line", curses.A_REVERSE)
    window.addstr(4, 2, "wide: 中文 ok")
    window.addstr(6, 2, "press any key")
    screen.refresh()
    window.refresh()
    window.getch()


curses.wrapper(main)
