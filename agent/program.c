/*
 * program.c - which code is the program's: the classes the application
 * class loader defined, and the instructions whose class initializer
 * HotSpot runs hidden from single-stepping in them.
 *
 * methods.c marks those instructions when it first sees a method, and
 * clinit.c counts the initializers they would hide; both ask here, so
 * neither has to ask the other.
 */
#include "agent.h"
#include "bytecode.h"

/* 1 when klass was defined by the application class loader (one of the
 * program's classes); 0 for the JDK's, another loader's, or when the loader
 * cannot be read (a failed JVMTI call is reported). */
int program_class(agent *a, JNIEnv *jni, jclass klass)
{
    jobject loader = NULL;
    if (a->system_loader == NULL ||
        jvmti_check(a, (*a->jvmti)->GetClassLoader(a->jvmti, klass, &loader), "GetClassLoader") != 0 ||
        loader == NULL)
        return 0;
    int yes = (*jni)->IsSameObject(jni, loader, a->system_loader);
    (*jni)->DeleteLocalRef(jni, loader);
    return yes;
}

/* 1 when klass was defined by a class loader other than the boot and the
 * platform loader: the program's classes, and those made on its behalf
 * (reflection's generated accessors, in a DelegatingClassLoader). Only
 * their constant pools can name a class of the program's, so only their
 * static accesses can make HotSpot run a program's static initializer
 * with single-stepping hidden (clinit.c). */
int init_sites_class(agent *a, JNIEnv *jni, jclass klass)
{
    jobject loader = NULL;
    if (a->platform_loader == NULL ||
        jvmti_check(a, (*a->jvmti)->GetClassLoader(a->jvmti, klass, &loader), "GetClassLoader") != 0 ||
        loader == NULL)
        return 0;
    int yes = !(*jni)->IsSameObject(jni, loader, a->platform_loader);
    (*jni)->DeleteLocalRef(jni, loader);
    return yes;
}

/* 1 for getstatic, putstatic and invokestatic: the instructions that may
 * initialize a class with single-stepping hidden (clinit.c, top). */
int program_init_trigger(uint8_t op)
{
    return op == BC_GETSTATIC || op == BC_PUTSTATIC || op == BC_INVOKESTATIC;
}
