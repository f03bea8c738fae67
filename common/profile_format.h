/*
 * profile_format.h - constants of the profile format (docs/profile-format.md)
 * that the agent, which writes profiles, and the scorer, which reads them,
 * must agree on. One definition, so the two cannot drift apart.
 */
#ifndef PSF_PROFILE_FORMAT_H
#define PSF_PROFILE_FORMAT_H

/* The <profile version="..."> the agent writes (config/profile.xsd
 * describes it). The scorer also reads PSF_PROFILE_VERSION_NOLINES, the
 * same format without the methods' <line> children (profiles kept as
 * references before lines existed). */
#define PSF_PROFILE_VERSION "6"
#define PSF_PROFILE_VERSION_NOLINES "5"

#endif
