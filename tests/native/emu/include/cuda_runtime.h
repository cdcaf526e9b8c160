// Stand-in for the emulator (tests/native/emu/aka_emu.h is force-included).
#pragma once
