"""Hugging Face transformers architectures for arch_zoo.py's "hf/<name>" family.

Each is built from its transformers config class with small sizes (2 layers, hidden 64-128,
vocabulary 1000) and random weights: the architecture's code paths (attention variants, rotary and
relative position embeddings, gated MLPs, pre/post norms, convolutional stems, patch merging, ...)
are what is checked, not trained numbers. No download: only the config and model classes are
used. transformers 4.40 works with Debian's torch 1.13, e.g. from unpacked wheels:
    pip download --no-deps -d W transformers==4.40.2 huggingface_hub==0.23.4 tokenizers==0.19.1 \
        safetensors regex tqdm filelock pyyaml packaging requests fsspec
    for w in W/*.whl; do python3 -m zipfile -e $w /tmp/hf_site; done
    PYTHONPATH=/tmp/hf_site /usr/bin/python3 benchmarks/arch_zoo.py export --out /tmp/arch_zoo_hf \
        --models $(/usr/bin/python3 benchmarks/arch_zoo.py list --family hf)
The exported output is the model's first output (last_hidden_state or logits).
"""

# Inputs: ("ids", shape) are token ids below VOCAB, ("img", shape) / ("wave", shape) floats.
VOCAB = 1000
SEQ = [("ids", (1, 16))]
IMG = [("img", (1, 3, 224, 224))]
TEXT = dict(vocab_size=VOCAB, hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
            intermediate_size=256, max_position_embeddings=128)
DECODER = dict(TEXT, num_key_value_heads=2)

# name -> (config class, model class, config kwargs, inputs)
HF_MODELS = {
    # encoders
    "bert": ("BertConfig", "BertModel", TEXT, SEQ),
    "distilbert": ("DistilBertConfig", "DistilBertModel",
                   dict(vocab_size=VOCAB, dim=128, n_layers=2, n_heads=4, hidden_dim=256), SEQ),
    "roberta": ("RobertaConfig", "RobertaModel", TEXT, SEQ),
    "albert": ("AlbertConfig", "AlbertModel", dict(TEXT, embedding_size=64), SEQ),
    "electra": ("ElectraConfig", "ElectraModel", dict(TEXT, embedding_size=64), SEQ),
    "deberta_v2": ("DebertaV2Config", "DebertaV2Model",
                   dict(TEXT, relative_attention=True, position_buckets=32,
                        pos_att_type=["p2c", "c2p"]), SEQ),
    "mpnet": ("MPNetConfig", "MPNetModel", TEXT, SEQ),
    "mobilebert": ("MobileBertConfig", "MobileBertModel",
                   dict(TEXT, embedding_size=64, intra_bottleneck_size=64,
                        true_hidden_size=64, num_feedforward_networks=2), SEQ),
    "convbert": ("ConvBertConfig", "ConvBertModel", dict(TEXT, embedding_size=128), SEQ),
    "xlm_roberta": ("XLMRobertaConfig", "XLMRobertaModel", TEXT, SEQ),
    "funnel": ("FunnelConfig", "FunnelBaseModel",
               dict(vocab_size=VOCAB, d_model=128, n_head=4, d_head=32, d_inner=256,
                    block_sizes=[1, 1]), SEQ),
    # decoders
    "gpt2": ("GPT2Config", "GPT2Model",
             dict(vocab_size=VOCAB, n_embd=128, n_layer=2, n_head=4, n_positions=128), SEQ),
    "gpt_neo": ("GPTNeoConfig", "GPTNeoModel",
                dict(vocab_size=VOCAB, hidden_size=128, num_layers=2, num_heads=4,
                     attention_types=[[["global", "local"], 1]], window_size=8,
                     max_position_embeddings=128), SEQ),
    "gptj": ("GPTJConfig", "GPTJModel",
             dict(vocab_size=VOCAB, n_embd=128, n_layer=2, n_head=4, rotary_dim=16,
                  n_positions=128), SEQ),
    "gpt_neox": ("GPTNeoXConfig", "GPTNeoXModel", dict(TEXT, rotary_pct=0.25), SEQ),
    "opt": ("OPTConfig", "OPTModel",
            dict(vocab_size=VOCAB, hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                 ffn_dim=256, max_position_embeddings=128, word_embed_proj_dim=128), SEQ),
    "bloom": ("BloomConfig", "BloomModel",
              dict(vocab_size=VOCAB, hidden_size=128, n_layer=2, n_head=4), SEQ),
    "llama": ("LlamaConfig", "LlamaModel", DECODER, SEQ),
    "mistral": ("MistralConfig", "MistralModel", dict(DECODER, sliding_window=8), SEQ),
    "qwen2": ("Qwen2Config", "Qwen2Model", DECODER, SEQ),
    "gemma": ("GemmaConfig", "GemmaModel", dict(DECODER, head_dim=32), SEQ),
    "phi": ("PhiConfig", "PhiModel", dict(TEXT, partial_rotary_factor=0.5), SEQ),
    "falcon": ("FalconConfig", "FalconModel",
               dict(vocab_size=VOCAB, hidden_size=128, num_hidden_layers=2,
                    num_attention_heads=4, alibi=False, new_decoder_architecture=False,
                    multi_query=True), SEQ),
    "codegen": ("CodeGenConfig", "CodeGenModel",
                dict(vocab_size=VOCAB, n_embd=128, n_layer=2, n_head=4, rotary_dim=16,
                     n_positions=128), SEQ),
    # encoder-decoders: input_ids and decoder_input_ids
    "t5": ("T5Config", "T5Model",
           dict(vocab_size=VOCAB, d_model=128, d_kv=32, d_ff=256, num_layers=2, num_heads=4,
                relative_attention_num_buckets=16), SEQ + SEQ),
    "bart": ("BartConfig", "BartModel",
             dict(vocab_size=VOCAB, d_model=128, encoder_layers=2, decoder_layers=2,
                  encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=256,
                  decoder_ffn_dim=256, max_position_embeddings=128), SEQ + SEQ),
    "marian": ("MarianConfig", "MarianModel",
               dict(vocab_size=VOCAB, d_model=128, encoder_layers=2, decoder_layers=2,
                    encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=256,
                    decoder_ffn_dim=256, max_position_embeddings=128, pad_token_id=0,
                    decoder_start_token_id=0), SEQ + SEQ),
    # vision
    "vit": ("ViTConfig", "ViTModel", TEXT, IMG),
    "deit": ("DeiTConfig", "DeiTModel", TEXT, IMG),
    "beit": ("BeitConfig", "BeitModel",
             dict(TEXT, use_relative_position_bias=True, use_mean_pooling=True), IMG),
    "dinov2": ("Dinov2Config", "Dinov2Model", dict(TEXT, image_size=224, patch_size=14), IMG),
    "swin": ("SwinConfig", "SwinModel",
             dict(embed_dim=32, depths=[2, 2], num_heads=[2, 4], window_size=7), IMG),
    "convnext": ("ConvNextConfig", "ConvNextModel",
                 dict(hidden_sizes=[32, 64, 128, 256], depths=[1, 1, 2, 1]), IMG),
    "convnextv2": ("ConvNextV2Config", "ConvNextV2Model",
                   dict(hidden_sizes=[32, 64, 128, 256], depths=[1, 1, 2, 1]), IMG),
    "resnet": ("ResNetConfig", "ResNetModel",
               dict(hidden_sizes=[64, 128, 256, 512], depths=[1, 1, 1, 1]), IMG),
    "regnet": ("RegNetConfig", "RegNetModel", dict(depths=[1, 1, 2, 1]), IMG),
    "mobilevit": ("MobileViTConfig", "MobileViTModel", dict(image_size=256),
                  [("img", (1, 3, 256, 256))]),
    "segformer": ("SegformerConfig", "SegformerForSemanticSegmentation",
                  dict(depths=[1, 1, 1, 1], hidden_sizes=[32, 64, 160, 256],
                       decoder_hidden_size=128), [("img", (1, 3, 256, 256))]),
    "levit": ("LevitConfig", "LevitModel", {}, IMG),
    "poolformer": ("PoolFormerConfig", "PoolFormerModel", dict(depths=[1, 1, 2, 1]), IMG),
    "cvt": ("CvtConfig", "CvtModel", {}, IMG),
    "mobilenet_v2": ("MobileNetV2Config", "MobileNetV2Model", {}, IMG),
    "yolos": ("YolosConfig", "YolosModel", dict(TEXT, image_size=[224, 224]), IMG),
    "dpt": ("DPTConfig", "DPTForSemanticSegmentation",
            dict(TEXT, num_hidden_layers=4, backbone_out_indices=[0, 1, 2, 3],
                 neck_hidden_sizes=[32, 64, 128, 128], fusion_hidden_size=64), [("img", (1, 3, 384, 384))]),
    # audio
    "wav2vec2": ("Wav2Vec2Config", "Wav2Vec2Model",
                 dict(TEXT, conv_dim=[64] * 3, conv_stride=[5, 2, 2], conv_kernel=[10, 3, 3],
                      num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4),
                 [("wave", (1, 4000))]),
    "hubert": ("HubertConfig", "HubertModel",
               dict(TEXT, conv_dim=[64] * 3, conv_stride=[5, 2, 2], conv_kernel=[10, 3, 3],
                    num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4),
               [("wave", (1, 4000))]),
    "whisper_encoder": ("WhisperConfig", "WhisperEncoderOnly",
                        dict(vocab_size=VOCAB, d_model=128, encoder_layers=2, decoder_layers=2,
                             encoder_attention_heads=4, decoder_attention_heads=4,
                             encoder_ffn_dim=256, decoder_ffn_dim=256, num_mel_bins=80,
                             max_source_positions=100, pad_token_id=0, bos_token_id=1,
                             eos_token_id=2, decoder_start_token_id=1),
                        [("img", (1, 80, 200))]),
    # multimodal
    "clip_vision": ("CLIPVisionConfig", "CLIPVisionModel",
                    dict(hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                         num_attention_heads=4, image_size=224, patch_size=32), IMG),
    "clip_text": ("CLIPTextConfig", "CLIPTextModel",
                  dict(vocab_size=VOCAB, hidden_size=128, intermediate_size=256,
                       num_hidden_layers=2, num_attention_heads=4, max_position_embeddings=77),
                  SEQ),
}


def build(name):
    """(eval-mode module returning the model's first output, None)."""
    import torch.nn as nn
    import transformers

    config_cls, model_cls, kwargs, inputs = HF_MODELS[name]
    config = getattr(transformers, config_cls)(**kwargs)
    # Eager attention: torch 1.13 has no scaled_dot_product_attention, and the exported graph is
    # the architecture's own arithmetic.
    config._attn_implementation = "eager"
    if hasattr(config, "use_cache"):
        config.use_cache = False
    if model_cls == "WhisperEncoderOnly":
        inner = transformers.WhisperModel(config).get_encoder()
    else:
        inner = getattr(transformers, model_cls)(config)
    keys = (["input_ids", "decoder_input_ids"] if len(inputs) == 2 else
            ["input_ids"] if inputs[0][0] == "ids" else
            ["input_values"] if inputs[0][0] == "wave" else
            ["input_features"] if model_cls == "WhisperEncoderOnly" else ["pixel_values"])

    class FirstOutput(nn.Module):
        def __init__(self):
            super().__init__()
            self.m = inner

        def forward(self, *xs):
            out = self.m(**dict(zip(keys, xs)), return_dict=True)
            return out[0]
    return FirstOutput(), None


def make_inputs(name, gen, shapes=None):
    """The model's inputs, at its table's shapes or at `shapes` (one per input)."""
    import torch
    xs = []
    specs = HF_MODELS[name][3]
    for (kind, _), shape in zip(specs, shapes or [s for _, s in specs]):
        if kind == "ids":
            xs.append(torch.randint(1, VOCAB, shape, generator=gen))
        else:
            xs.append(torch.randn(shape, generator=gen))
    return tuple(xs)
