/*
 * profile_format.h - constants of the profile format (docs/profile-format.md)
 * that the agent, which writes profiles, and the scorer, which reads them,
 * must agree on. One definition, so the two cannot drift apart.
 */
#ifndef PSF_PROFILE_FORMAT_H
#define PSF_PROFILE_FORMAT_H

/* The <profile version="..."> the agent writes (config/profile.xsd
 * describes it). The scorer also reads the older versions kept profiles
 * (references) may have: PSF_PROFILE_VERSION_NOCONTEXTS, the same format
 * without <contexts>, and PSF_PROFILE_VERSION_NOLINES, without <contexts>
 * and without the methods' <line> children. */
#define PSF_PROFILE_VERSION "7"
#define PSF_PROFILE_VERSION_NOCONTEXTS "6"
#define PSF_PROFILE_VERSION_NOLINES "5"

/* At most this many <frame> elements in <contexts>: the agent keeps the
 * calling contexts with the most bytecodes, and the scorer refuses more. */
#define PSF_PROFILE_CONTEXTS_MAX 1000

#endif
