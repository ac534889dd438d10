@BEAT
Feature: Beating
  The defender answers each attack card by laying one of his cards on it. A card beats an attack
  card of its own suit if it is higher, and a trump beats any card that is not a trump; a trump
  itself can only be beaten by a higher trump. A card of another plain suit never beats, however
  high: the ace of spades cannot beat the six of clubs, but the six of trumps can beat the ace of
  spades.

  The defender is never forced to beat, nor to follow suit: he may spend a trump where a plain
  card would do, or give up and take the cards.

  Rule: What beats what
    @R-BEAT-1
    Scenario Outline: With diamonds trumps, <defence> on <attack>: <why>
      Given a 2-player podkidnoy game
      And the trump suit is diamonds
      And the talon is empty
      And player 0 holds JH, JC
      And player 1 holds <defence>
      And player 0 has attacked with <attack>
      Then the defender <verdict> beat <attack> with <defence>

      Examples:
        | attack | defence | verdict | why                                      |
        | 7C     | 9C      | may     | a higher card of the suit beats          |
        | 9C     | 7C      | may not | a lower card of the suit does not        |
        | AS     | 6D      | may     | the lowest trump beats a plain ace       |
        | 6D     | 7D      | may     | a higher trump beats a trump             |
        | 7D     | 6D      | may not | a lower trump does not                   |
        | 6D     | AS      | may not | a plain card never beats a trump         |
        | 8S     | 9H      | may not | a card of another plain suit never beats |

    @R-BEAT-1
    Scenario: Beating with a card that does not beat is refused
      Given a 2-player podkidnoy game
      And the trump suit is diamonds
      And the talon is empty
      And player 0 holds JH, JC
      And player 1 holds 9H
      And player 0 has attacked with 8S
      When the defender beats 8S with 9H
      Then the move is refused citing R-BEAT-1

  Rule: No duty to follow suit, no duty to beat
    Background:
      Given a 2-player podkidnoy game
      And the trump suit is diamonds
      And the talon is empty
      And player 0 holds JH, JC
      And player 1 holds 9C, 6D, QS
      And player 0 has attacked with 7C

    @R-BEAT-2
    Scenario: A trump may be spent although a club would do
      Then the defender may beat 7C with 6D
      And the defender may beat 7C with 9C

    @R-BEAT-2 @R-TAKE-1
    Scenario: The defender may take although he could beat
      Then the defender may take
      When the defender takes
      And player 0 passes
      Then the defender picks up the cards of the bout

  Rule: One card on each attack card, and only on an unbeaten one
    @R-BEAT-3
    Scenario: A beaten card cannot be beaten again
      Given a 2-player podkidnoy game
      And the trump suit is diamonds
      And the talon is empty
      And player 0 holds JH, AH, KH
      And player 1 holds JC, 8S
      And player 0 has attacked with 7C, 7S
      And the defender has beaten 7C with 9C
      Then the defender may not beat 7C with JC
      And the defender may beat 7S with 8S
      When the defender beats 7C with JC
      Then the move is refused citing R-BEAT-3

    @R-BEAT-3
    Scenario: Only a card on the table can be beaten
      Given a 2-player podkidnoy game
      And the trump suit is diamonds
      And the talon is empty
      And player 0 holds JH, AH, KH, 8C
      And player 1 holds JC, 8S, 9S
      And player 0 has attacked with 7S
      When the defender beats 8C with JC
      Then the move is refused citing R-BEAT-3

    @R-BEAT-3
    Scenario: Each attack card carries its own defence card
      Given a 2-player podkidnoy game
      And the trump suit is diamonds
      And the talon is empty
      And player 0 holds JH, AH, KH
      And player 1 holds JC, 8S, 6C
      And player 0 has attacked with 7C, 7S
      When the defender beats 7S with 8S
      And the defender beats 7C with JC
      Then the table holds 7C beaten by JC, 7S beaten by 8S
      And the bout goes on

  Rule: The order of beating
    @R-BEAT-4
    Scenario Outline: Beating the later card first with beat_order <beat_order>
      Given a 2-player podkidnoy game
      And the option beat_order is <beat_order>
      And the trump suit is diamonds
      And the talon is empty
      And player 0 holds JH, AH
      And player 1 holds 9C, 9S
      And player 0 has attacked with 7C, 7S
      Then the defender may beat 7C with 9C
      And the defender <verdict> beat 7S with 9S

      Examples:
        | beat_order     | verdict |
        | any            | may     |
        | earliest_first | may not |

    @R-BEAT-4 @opt:beat_order=earliest_first
    Scenario: Beating out of order is refused when the earliest card must go first
      Given a 2-player podkidnoy game
      And the trump suit is diamonds
      And the talon is empty
      And player 0 holds JH, AH
      And player 1 holds 9C, 9S
      And player 0 has attacked with 7C, 7S
      When the defender beats 7S with 9S
      Then the move is refused citing R-BEAT-4
