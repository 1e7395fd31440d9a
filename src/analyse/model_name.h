/* model_name.h -- model size and family, read off a model's name.
 *
 * A study plots compile time against model size, but a sweep's model tag
 * is a name: qwen2-7b, Qwen2.5-1.5B-Instruct, qwen25_1_5b, smollm-360m.  The
 * size is in the name by convention -- a number with a unit, b (billions of
 * parameters) or m (millions), standing as a word of its own -- and the
 * family is the name without it.  The rules, in order:
 *
 *   1. a candidate is digits, optionally a decimal part after '.' or '_'
 *      (qwen25_1_5b: 1_5b is 1.5), then 'b'/'B' or 'm'/'M', with a
 *      separator (- _ . / space) or the start before it and a separator or
 *      the end after it (gemma-2-2b-it: "2b");
 *   2. a number glued to letters before it is not one (resnet50, llama3,
 *      mixtral-8x7b: the 7b of "8x7b" is not the model's size), nor is the
 *      decimal part of a number (the 5b of v1.5b);
 *   3. one candidate: its value (m divided by 1000); several: the 'b' ones
 *      must agree, else the size is unknown -- never a wrong one.
 * No size leaves size_b unset: Phi-3-mini-4k (4k is a context length),
 * resnet50, bert-base.  The family is the name with the size word and the
 * separator before it removed ("Llama-3.2-1B" -> "Llama-3.2"); without a
 * size it is the whole name.
 */
#ifndef NPUSCOPE_MODEL_NAME_H
#define NPUSCOPE_MODEL_NAME_H

#include <stddef.h>

/* The size in billions of parameters; returns 1 and sets *size_b (and the
 * word's offset and length, either may be NULL), or 0 when the name has no
 * size it can be sure of. */
int ns_model_size_b(const char *name, double *size_b, size_t *at, size_t *len);
/* The family: the name without its size word.  Free it. */
char *ns_model_family_new(const char *name);

#endif
