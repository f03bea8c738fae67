/*
 * methods.h - the executed methods (methods.c): each one's profile entry
 * (method_info, agent.h) made on its first step, its name as the profile
 * has it, its class's constant pool and the dependency key of each of its
 * instructions.
 */
#ifndef PSF_METHODS_H
#define PSF_METHODS_H

#include "agent.h"

method_info *methods_get(agent *a, JNIEnv *jni, jmethodID id); /* takes a->lock; NULL on failure */
/* A method's name as the profile has it, "pkg.Class.name(desc)" in UTF-8
 * (malloc'd; NULL out of memory), from its class's JVMTI signature, its
 * name and descriptor; the class's binary name goes to cls. */
char *method_full_name(const char *csig, const char *name, const char *desc, char *cls, size_t clslen);
const class_info *methods_class(agent *a, jclass klass); /* its parsed constant pool; takes a->lock */
method_info *methods_add_plain(agent *a, const char *name, const uint8_t *code, uint32_t code_len); /* lock held */
uint8_t methods_root_kind(const char *cls, const char *name, const char *desc); /* enum root_kind */
uint32_t methods_key_of(agent *a, const cpool *cp, const uint8_t *code, uint32_t pc); /* lock held */
int methods_no_fence(const char *key);      /* 1: an invokestatic of it has no fence (DEP_NO_FENCE) */

#endif
