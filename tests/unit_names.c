/* unit_names.c -- model size (size_b) and family from model names
 * (analyse/model_name.h): the names of the published study, of its
 * constructed sweeps, and of common Hugging Face exports.  A name without
 * a size it can be sure of gives none, never a wrong one. */
#include "check.h"

#include "analyse/model_name.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;   /* as a sweep's model tag may hold it */
    double size_b;      /* expected billions; < 0: no size */
    const char *family; /* expected family */
} ns__case;

static const ns__case cases[] = {
    /* the study's models and their spellings */
    {"qwen2-7b", 7, "qwen2"},
    {"qwen2-1.5b", 1.5, "qwen2"},
    {"qwen2.5-1.5b", 1.5, "qwen2.5"},
    {"qwen25_1_5b", 1.5, "qwen25"},
    {"qwen25_7b", 7, "qwen25"},
    {"qwen2.5-0.5b", 0.5, "qwen2.5"},
    {"llama3.2-1b", 1, "llama3.2"},
    {"llama3.2-3b", 3, "llama3.2"},
    {"llama3.1-8b", 8, "llama3.1"},
    {"phi3-3.8b", 3.8, "phi3"},
    {"gemma2-2b", 2, "gemma2"},
    {"tinyllama-1.1b", 1.1, "tinyllama"},
    {"smollm-360m", 0.36, "smollm"},
    {"smollm2-135m", 0.135, "smollm2"},
    /* Hugging Face names */
    {"Qwen2.5-7B-Instruct", 7, "Qwen2.5-Instruct"},
    {"Qwen/Qwen2.5-1.5B-Instruct", 1.5, "Qwen/Qwen2.5-Instruct"},
    {"Qwen1.5-0.5B-Chat", 0.5, "Qwen1.5-Chat"},
    {"Llama-3.2-1B", 1, "Llama-3.2"},
    {"Llama-2-13b-chat-hf", 13, "Llama-2-chat-hf"},
    {"Meta-Llama-3-8B-Instruct", 8, "Meta-Llama-3-Instruct"},
    {"gemma-2-2b-it", 2, "gemma-2-it"},
    {"gemma-7b", 7, "gemma"},
    {"TinyLlama-1.1B-Chat-v1.0", 1.1, "TinyLlama-Chat-v1.0"},
    {"TinyLlama-1.1B-Chat", 1.1, "TinyLlama-Chat"},
    {"Mistral-7B-v0.1", 7, "Mistral-v0.1"},
    {"falcon-7b", 7, "falcon"},
    {"opt-125m", 0.125, "opt"},
    {"bloom-560m", 0.56, "bloom"},
    {"deepseek-coder-1.3b-base", 1.3, "deepseek-coder-base"},
    {"stablelm-2-1_6b", 1.6, "stablelm-2"},
    {"SmolLM2-1.7B-Instruct", 1.7, "SmolLM2-Instruct"},
    {"qwen2-7b-int4-ov", 7, "qwen2-int4-ov"},
    {"7b-model", 7, "model"},
    /* no size: none, never a wrong one */
    {"Phi-3-mini-4k", -1, "Phi-3-mini-4k"},
    {"Phi-3-mini-4k-instruct", -1, "Phi-3-mini-4k-instruct"},
    {"resnet50", -1, "resnet50"},
    {"yolov8n", -1, "yolov8n"},
    {"bert-base-uncased", -1, "bert-base-uncased"},
    {"mobilenet_v2", -1, "mobilenet_v2"},
    {"mixtral-8x7b", -1, "mixtral-8x7b"},
    {"gpt2", -1, "gpt2"},
    {"llama3", -1, "llama3"},
    {"m05", -1, "m05"},
    {"t5-small", -1, "t5-small"},
    {"model-1b-vs-2b", -1, "model-1b-vs-2b"},
    {"llama-v1.5b", -1, "llama-v1.5b"},
    {"", -1, ""},
};

int main(void) {
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const ns__case *c = &cases[i];
        double v = -1;
        int has = ns_model_size_b(c->name, &v, NULL, NULL);
        int size_ok = c->size_b < 0 ? !has : has && fabs(v - c->size_b) < 1e-9;
        CHECK(size_ok);
        if (!size_ok) printf("     '%s': size %s %g, expected %g\n", c->name, has ? "" : "none", v, c->size_b);
        char *f = ns_model_family_new(c->name);
        CHECK(strcmp(f, c->family) == 0);
        if (strcmp(f, c->family)) printf("     '%s': family '%s', expected '%s'\n", c->name, f, c->family);
        free(f);
    }
    return check_summary("unit_names");
}
