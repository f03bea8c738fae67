/*
 * profile_format.h - constants of the profile format (docs/profile-format.md)
 * that the agent, which writes profiles, and the scorer, which reads them,
 * must agree on. One definition, so the two cannot drift apart.
 */
#ifndef PSF_PROFILE_FORMAT_H
#define PSF_PROFILE_FORMAT_H

/* The <profile version="..."> the agent writes and the only one the scorer
 * reads (config/profile.xsd describes this version). */
#define PSF_PROFILE_VERSION "5"

#endif
