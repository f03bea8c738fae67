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
#include "jvmti_util.h"
#include "program.h"

/* 1 when `loader` (NULL: the boot loader) is the application class loader:
 * its classes are the program's. */
int program_loader(agent *a, JNIEnv *jni, jobject loader)
{
    return loader != NULL && a->system_loader != NULL && (*jni)->IsSameObject(jni, loader, a->system_loader);
}

/* 1 when `loader` is neither the boot nor the platform loader: the
 * program's classes, and those made on its behalf (reflection's generated
 * accessors, in a DelegatingClassLoader). Only their constant pools can
 * name a class of the program's, so only their static accesses can make
 * HotSpot run a program's static initializer with single-stepping hidden
 * (clinit.c). */
int init_sites_loader(agent *a, JNIEnv *jni, jobject loader)
{
    return loader != NULL && a->platform_loader != NULL && !(*jni)->IsSameObject(jni, loader, a->platform_loader);
}

/* test(loader of klass); 0 when the loader cannot be read (a failed JVMTI
 * call is reported). */
static int loader_test(agent *a, JNIEnv *jni, jclass klass, int (*test)(agent *, JNIEnv *, jobject))
{
    jobject loader = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetClassLoader(a->jvmti, klass, &loader), "GetClassLoader") != 0)
        return 0;
    int yes = test(a, jni, loader);
    if (loader != NULL)
        (*jni)->DeleteLocalRef(jni, loader);
    return yes;
}

/* 1 when klass is one of the program's classes (program_loader). */
int program_class(agent *a, JNIEnv *jni, jclass klass)
{
    return loader_test(a, jni, klass, program_loader);
}

/* 1 when clinit.c checks klass's static accesses (init_sites_loader). */
int init_sites_class(agent *a, JNIEnv *jni, jclass klass)
{
    return loader_test(a, jni, klass, init_sites_loader);
}

/* 1 for getstatic, putstatic and invokestatic: the instructions that may
 * initialize a class with single-stepping hidden (clinit.c, top). */
int program_init_trigger(uint8_t op)
{
    return op == BC_GETSTATIC || op == BC_PUTSTATIC || op == BC_INVOKESTATIC;
}
