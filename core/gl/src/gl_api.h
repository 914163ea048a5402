#pragma once
// The one place GL functions come from. glvnd's libOpenGL.so.0 exports every core function of OpenGL 4.6 (checked
// with `nm -D`: glGenFramebuffers, glDrawArraysInstanced, glGetBufferSubData, ... are there), dispatched to the
// current context's vendor library. So the core-profile header's prototypes are linked directly against
// OpenGL::OpenGL: no loader, no eglGetProcAddress for GL (EGL extensions alone go through eglGetProcAddress).
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/glcorearb.h>
