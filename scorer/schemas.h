/*
 * schemas.h - the XSD schemas, built into the scorer.
 *
 * config/costs.xsd and config/profile.xsd are turned into byte arrays at
 * build time (scorer/embed.sh), so psf-score validates against exactly the
 * schemas it was built with, from any working directory.
 */
#ifndef PSF_SCHEMAS_H
#define PSF_SCHEMAS_H

#include <stddef.h>

extern const unsigned char psf_costs_xsd[];
extern const size_t psf_costs_xsd_len;
extern const unsigned char psf_profile_xsd[];
extern const size_t psf_profile_xsd_len;

#endif
