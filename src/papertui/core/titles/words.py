"""Word tables the title rules share: function words, field acronyms, head nouns."""

from __future__ import annotations

import re


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_FUNCTION = _wordset(
    """
    a an the of for and or in on to with by from via using under over at as into onto than that
    this these those its it their our we which where when while whose is are be been being was
    were has have had can may might will would should could do does did not no nor but so such
    both either neither each every any all some between among within without across through
    toward towards against about above below beyond upon if then thus also very more most less
    new novel how what why whether based i.e. e.g. one two its whereas yet
    """
)

# Acronyms of fields, tools and data sets: they may appear in a title but never lead it.
_GENERIC = _wordset(
    """
    AI ML NLP CV RL DL IR QA VQA LLM VLM LM MLLM CNN RNN GNN DNN MLP GAN VAE ViT BERT GPT CLIP
    NeRF SGD GD ODE PDE SDE MDP POMDP PAC KL IID SOTA GPU CPU TPU API RGB RGBD RGB-D 2D 3D 4D 6D
    6DoF 6-DoF LiDAR SLAM SDF IoU mAP FID PSNR SSIM HDR UV ImageNet COCO CIFAR MNIST KITTI SVM
    PCA EM MCMC MAP MLE ELBO OOD ID IoT AR VR XR ReLU LSTM DP US UK EU TV FPS NN CT MRI FL OT TS
    II III IV OK ERM SSL MAE MIM NAS TD DQN PPO SAC GCN GCL ViTs AUC ROC RMSE MSE BEV VLP BN LN
    EEG ECG FLOPs FLOP SNR LDP GP GPs ICL CoT DETR ResNet MoE SAM SVD QP LP CLT NTK
    """
)

# Head nouns that say nothing about the paper ("a method for X"): dropped, the rest reads as a
# title.
_HEADS = (
    r"(?:method|methods|framework|approach|algorithm|algorithms|technique|techniques|scheme|"
    r"strategy|strategies|module|paradigm|mechanism|solution|procedure|methodology|recipe|"
    r"pipeline|system)"
)

# "method that jointly learns X" -> "learning X"
# Head nouns that name no content of their own: "an alternative that avoids X", "a new perspective
# that casts X as Y", "a class of smooth mixture transformations".
_VAGUE = (
    r"(?:alternative|improvement|perspective|view|viewpoint|variant|extension|generalization|"
    r"generalisation|way|idea|notion|tool|model|architecture|formulation|treatment|lens)"
)

_VAGUE_WORDS = _wordset(
    "alternative improvement perspective view viewpoint variant extension generalization "
    "generalisation way idea notion class family set kind type variety suite collection series "
    "range number lot such this these that those it they remark application setting advantages "
    "feasibility possibility ability question problem answer"
)

_HEAD_WORDS = _wordset(re.sub(r"[^a-z]+", " ", _HEADS + _VAGUE)) | _VAGUE_WORDS


def _offerable(token: str) -> bool:
    """Whether a name-shaped word may be a paper's own name: not a field's acronym, not a number."""
    return (
        len(token) >= 2
        and token not in _GENERIC
        and token.rstrip("s") not in _GENERIC
        and not token.isdigit()
        and not token[:4].isdigit()  # "2023NeurIPSCS-isolate": a link that lost its slashes
    )
