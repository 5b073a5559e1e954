@misc{papertuif50efd03a369,
  title = {Paper 0 on graph methodsx[/b] α with 0.092.},
  abstract = {Paper 0 on graph methods [b]x[/b] $\alpha$ with 0.092.},
  howpublished = {Monkey},
  note = {h ?B1jkw7mj bl},
  addendum = {title derived from the abstract by papertui}
}
